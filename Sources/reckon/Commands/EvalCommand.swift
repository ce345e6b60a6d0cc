import Foundation
import ReckonEngine
import ReckonPolicy
import ReckonTools

/// `reckon eval`: decides one request and prints the decision, the body and, asked, why.
enum EvalCommand: Command {
  static let name = "eval"
  static let summary = "Decide one request with a policy and show the body and why"
  static let options: [CommandOption] = [
    CommandOption(
      "policy", value: "FILE",
      help: "the policy to decide with (with --config: default the request's app's policy)"),
    CommandOption(
      "request", value: "FILE",
      help: [
        "a CONSUMPTION_REQUEST in Apple's JSON shape, its transaction decoded in",
        "place of data.signedTransactionInfo; with --config also the body Apple",
        "posts, {\"signedPayload\": ...}, verified against the configured roots",
      ]),
    CommandOption(
      "facts", value: "FILE",
      help: [
        "a JSON object of fact names and values written as in the language,",
        "e.g. {\"usage.consumed\": \"37.5%\", \"customer.account_age\": \"400 days\"};",
        "with --config it is optional and overrides the configured sources",
        "(it is layered first, so \"what if\" values win); a fact the request",
        "gives (reason, purchase.date, now ...) is ignored, with a warning",
      ]),
    CommandOption(
      "config", value: "FILE",
      help: "gather facts through the fact sources configured in reckon.json"),
    CommandOption(
      "explain",
      help: "say in plain words which rule decided and why, and where each field came from"),
    CommandOption("format", value: "FORMAT", help: "text (default) or json"),
    CommandOption(
      "fact", value: "NAME=VALUE",
      help: [
        "without --request: a fact of the request to decide, written as in the",
        "language (--fact usage.consumed=40%); give it again for each fact",
      ]),
    CommandOption(
      "reason", value: "REASON",
      help: "without --request: the customer's reason (default UNINTENDED_PURCHASE)"),
    CommandOption(
      "product-type", value: "TYPE",
      help: "without --request: the product type (default CONSUMABLE)"),
    CommandOption(
      "purchase-date", value: "TIME",
      help: "without --request: when it was bought (default a week before --now)"),
    CommandOption(
      "now", value: "TIME",
      help: [
        "the receive time: 2026-11-01 (midnight UTC) or an ISO 8601 time with its",
        "zone, 2026-11-01T09:30:00Z; default: the notification's signedDate",
      ]),
  ]
  static let help = """
    Usage: reckon eval --policy FILE --request FILE --facts FILE [--explain] [--format text|json] [--now TIME]
           reckon eval --config reckon.json --request FILE [--policy FILE] [--facts FILE] [...]
           reckon eval --policy FILE [--reason R] [--product-type T] [--fact NAME=VALUE]... [...]

    Without --request, the request is built from the options, to ask "what would we answer
    if...": a purchase a week before --now (default: now), from a customer who consented,
    delivered and without a sample unless --fact says otherwise. With --config, its custom
    facts and currency rates are known.

    \(CommandOption.table(options))
    """

  static let exitStatuses: [(code: Int32, meaning: String)] = [
    (0, "a decision was made (whatever it is)"),
    (1, "the policy or an input is invalid"),
    (
      3,
      "a fact source failed or timed out and the policy reads facts it could have supplied (the request would be kept and retried)"
    ),
  ]

  static func run(_ arguments: inout Arguments, _ console: Console) async throws -> Int32 {
    let outcome: RequestEvaluation.Outcome
    if arguments.option("request") == nil {
      return try whatIf(&arguments, console)
    }
    if let configPath = arguments.option("config") {
      let requestPath = try arguments.required("request")
      let policyPath = arguments.option("policy")
      let factsPath = arguments.option("facts")
      let output = try OutputOptions(&arguments)
      do {
        outcome = try await RequestEvaluation.decide(
          configurationPath: configPath, policyPath: policyPath, requestPath: requestPath,
          factsPath: factsPath, now: output.now, traces: output.traces,
          records: { configuration in
            try StateChoice.existing(configuration).map {
              StateHistoryFacts(store: try $0.open(access: .readOnly))
            }
          }, warn: console.error)
      } catch let failure as RequestEvaluation.Failure {
        throw UsageError(failure.description)
      }
      return finish(outcome, output, console)
    }
    let policyPath = try arguments.required("policy")
    let requestPath = try arguments.required("request")
    let factsPath = try arguments.required("facts")
    let output = try OutputOptions(&arguments)
    outcome = try RequestEvaluation.decide(
      policyPath: policyPath, requestPath: requestPath, factsPath: factsPath, now: output.now,
      traces: output.traces, warn: console.error)
    return finish(outcome, output, console)
  }

  /// `reckon eval --policy FILE --fact ...`: a request built from the options.
  private static func whatIf(_ arguments: inout Arguments, _ console: Console) throws -> Int32 {
    let policyPath = try arguments.required("policy")
    let schema = try CustomFactsOption.schema(&arguments)
    guard arguments.option("facts") == nil else {
      throw UsageError("without --request, give facts with --fact NAME=VALUE")
    }
    let facts = arguments.options("fact")
    let reason = arguments.option("reason")
    let productType = arguments.option("product-type")
    let purchaseDate = try arguments.option("purchase-date").map(OutputOptions.parseTime)
    let output = try OutputOptions(&arguments)
    var request = WhatIfRequest(now: output.now ?? Date())
    request.facts = facts
    if let reason { request.reason = reason }
    if let productType { request.productType = productType }
    request.purchaseDate = purchaseDate
    let outcome: RequestEvaluation.Outcome
    do {
      outcome = try RequestEvaluation.decide(
        policyPath: policyPath, whatIf: request, schema: schema, traces: output.traces,
        warn: console.error)
    } catch let problem as WhatIfRequest.Problem {
      throw UsageError(problem.description)
    }
    return finish(outcome, output, console)
  }

  /// Prints the decision and says how the evaluation ended: 0 decided, 1 the policy refused,
  /// 3 a fact source failed.
  private static func finish(
    _ outcome: RequestEvaluation.Outcome, _ output: OutputOptions, _ console: Console
  ) -> Int32 {
    switch outcome {
    case .decided(let decision, let policy):
      show(decision, policy, output, console)
      return 0
    case .policyRefused:
      return 1
    case .factsUnavailable(let reason):
      console.error(reason)
      return 3
    }
  }

  private static func show(
    _ decision: Decision, _ policy: CompiledPolicy, _ output: OutputOptions, _ console: Console
  ) {
    if output.format == .json {
      console.out(DecisionReport(decision, policy: policy).jsonText())
    } else {
      console.out(DecisionExplainer(policy: policy).render(decision, explain: output.explain))
    }
  }

  /// `--explain`, `--format` and `--now`, read last (they end the options) with or without
  /// `--config`.
  private struct OutputOptions {
    let explain: Bool
    let format: OutputFormat
    let now: Date?

    init(_ arguments: inout Arguments) throws {
      explain = arguments.flag("explain")
      format = try OutputFormat.option(&arguments) ?? .text
      now = try arguments.option("now").map(OutputOptions.parseTime)
      try arguments.rejectUnknown()
    }

    /// Whether the decision keeps its trace: the explanation and the JSON report show it.
    var traces: Bool { explain || format == .json }

    /// As `dry-run --since` reads it: a whole UTC day, or a time with its zone.
    static func parseTime(_ text: String) throws(UsageError) -> Date {
      do { return try DryRunSetup.date(text) } catch { throw UsageError("--now: \(error)") }
    }
  }
}
