import Foundation
import ReckonEngine
import ReckonFacts
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
      "now", value: "TIME",
      help: [
        "the receive time: 2026-11-01 (midnight UTC) or an ISO 8601 time with its",
        "zone, 2026-11-01T09:30:00Z; default: the notification's signedDate",
      ]),
  ]
  static let help = """
    Usage: reckon eval --policy FILE --request FILE --facts FILE [--explain] [--format text|json] [--now TIME]
           reckon eval --config reckon.json --request FILE [--policy FILE] [--facts FILE] [...]

    \(CommandOption.table(options))

    Exits 0 when a decision was made (whatever it is), 1 when the policy or an input is invalid,
    3 when a fact source failed or timed out and the policy reads facts it could have supplied
    (the request would be kept and retried).
    """

  static func run(_ arguments: inout Arguments, _ console: Console) async throws -> Int32 {
    if let configPath = arguments.option("config") {
      return try await runConfigured(configPath, &arguments, console)
    }
    let policyPath = try arguments.required("policy")
    let requestPath = try arguments.required("request")
    let factsPath = try arguments.required("facts")
    let output = try OutputOptions(&arguments)

    let schema = FactSchema.standard
    let loaded = try PolicyFiles.load(policyPath, schema: schema)
    if !loaded.diagnostics.isEmpty { console.error(loaded.renderedDiagnostics()) }
    guard let policy = loaded.policy else { return 1 }
    let request = try RequestFile.load(path: requestPath, now: output.now)
    warnAboutUnrecognizedValues(in: request, at: requestPath, console)
    let document = try FactDocument(path: factsPath, schema: schema)
    warnAboutNotificationFacts(in: document, at: factsPath, schema: schema, console)
    var facts = GatheredFacts(request: request, schema: schema)
    facts.add(
      document.values, from: URL(fileURLWithPath: factsPath).lastPathComponent, schema: schema)

    show(
      Decider(policy: policy, schema: schema).decide(request, facts: facts, trace: output.traces),
      policy, output, console)
    return 0
  }

  /// `--config`: facts through the configured sources, `--facts` layered first as an override.
  private static func runConfigured(
    _ configPath: String, _ arguments: inout Arguments, _ console: Console
  ) async throws -> Int32 {
    let requestPath = try arguments.required("request")
    let policyOption = arguments.option("policy")
    let factsPath = arguments.option("facts")
    let output = try OutputOptions(&arguments)

    let configuration = try ReckonConfiguration.load(path: configPath)
    let setup = try FactSourceSetup(configuration.factSources)
    // A webhook body as Apple posts it is verified as `reckon serve` would.
    let request = try RequestFile.load(path: requestPath, now: output.now) {
      () throws(RequestFile.Failure) in
      do { return try DryRunSetup.verifier(configuration) } catch {
        throw .unreadable(path: requestPath, reason: "cannot be verified: \(error)")
      }
    }
    warnAboutUnrecognizedValues(in: request, at: requestPath, console)
    let bundleId = request.keys.bundleId ?? ""
    guard
      let policyPath = policyOption
        ?? configuration.app(
          bundleId: bundleId, environment: request.notification.data?.environment)?.policyPath
    else {
      throw UsageError(
        "\(configPath): no app for bundle '\(bundleId)' in this environment; give --policy")
    }
    let loaded = try PolicyFiles.load(policyPath, schema: setup.schema)
    if !loaded.diagnostics.isEmpty { console.error(loaded.renderedDiagnostics()) }
    guard let policy = loaded.policy else { return 1 }
    var overrides: [LayeredFactSource.Layer] = []
    if let factsPath {
      let document = try FactDocument(path: factsPath, schema: setup.schema)
      warnAboutNotificationFacts(in: document, at: factsPath, schema: setup.schema, console)
      overrides.append(
        LayeredFactSource.Layer(
          FixedFactSource(
            name: URL(fileURLWithPath: factsPath).lastPathComponent, values: document.values)))
    }
    switch await setup.gatherer(before: overrides).gather(request, for: policy) {
    case .ready(let facts):
      let decision = Decider(policy: policy, schema: setup.schema).decide(
        request, facts: facts, trace: output.traces)
      show(decision, policy, output, console)
      return 0
    case .retry(let failure):
      console.error(failure.description)
      return 3
    }
  }

  /// Says on stderr that a value in the request is none of Apple's, so its fact is missing: a
  /// typo in a hand-written request would otherwise only show as a missing fact.
  private static func warnAboutUnrecognizedValues(
    in request: RefundRequest, at path: String, _ console: Console
  ) {
    for unrecognized in request.unrecognizedValues {
      console.error("warning: \(path): \(unrecognized)")
    }
  }

  /// Says on stderr, with or without --explain, that a fact only the request gives is not taken
  /// from --facts: otherwise the file's value would seem to have been used.
  private static func warnAboutNotificationFacts(
    in document: FactDocument, at path: String, schema: FactSchema, _ console: Console
  ) {
    for name in document.values.keys.sorted() where schema.origin(of: name) == .notification {
      let why =
        name == "now"
        ? "it is when the request was received; give it with --now"
        : "only the request (the signed notification) gives it; change it in the --request file"
      console.error("warning: \(path): \(name) is ignored: \(why)")
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
    private static func parseTime(_ text: String) throws(UsageError) -> Date {
      do { return try DryRunSetup.date(text) } catch { throw UsageError("--now: \(error)") }
    }
  }
}

/// The facts of a `--facts` file, as a source layered before the configured ones.
private struct FixedFactSource: FactSource {
  let name: String
  let values: [String: Value]

  func facts(for keys: RequestKeys) async throws -> [String: Value] { values }
}
