import Foundation
import ReckonEngine
import ReckonFacts

/// `reckon eval`: decides one request and prints the decision, the body and, asked, why.
enum EvalCommand: Command {
  static let name = "eval"
  static let summary = "Decide one request with a policy and show the body and why"
  static let flagNames: Set<String> = ["explain"]
  static let help = """
    Usage: reckon eval --policy FILE --request FILE --facts FILE [--explain] [--format text|json] [--now TIME]

    --policy FILE    the policy to decide with
    --request FILE   a CONSUMPTION_REQUEST in Apple's JSON shape, its transaction decoded in
                     place of data.signedTransactionInfo
    --facts FILE     a JSON object of fact names and values written as in the language,
                     e.g. {"usage.consumed": "37.5%", "customer.account_age": "400 days"}
    --explain        say in plain words which rule decided and why, and where each field came from
    --format FORMAT  text (default) or json
    --now TIME       the receive time (ISO 8601); default: the notification's signedDate

    Exits 0 when a decision was made (whatever it is), 1 when the policy or an input is invalid.
    """

  static func run(_ arguments: inout Arguments, _ console: Console) async throws -> Int32 {
    let policyPath = try arguments.required("policy")
    let requestPath = try arguments.required("request")
    let factsPath = try arguments.required("facts")
    let explain = arguments.flag("explain")
    let format = arguments.option("format") ?? "text"
    let now = try arguments.option("now").map(parseTime)
    try arguments.rejectUnknown()
    guard format == "text" || format == "json" else { throw UsageError("--format must be text or json") }

    let schema = FactSchema.standard
    let loaded = try PolicyFiles.load(policyPath, schema: schema)
    if !loaded.diagnostics.isEmpty { console.error(loaded.renderedDiagnostics()) }
    guard let policy = loaded.policy else { return 1 }
    let request = try RequestFile.load(path: requestPath, now: now)
    let document = try FactDocument(contentsOf: URL(fileURLWithPath: factsPath), schema: schema)
    var facts = GatheredFacts(request: request, schema: schema)
    facts.add(document.values, from: URL(fileURLWithPath: factsPath).lastPathComponent, schema: schema)

    let decision = Decider(policy: policy, schema: schema).decide(request, facts: facts, trace: explain || format == "json")
    if format == "json" {
      console.out(DecisionReport(decision, policy: policy).jsonText())
    } else {
      console.out(DecisionExplainer(policy: policy).render(decision, explain: explain))
    }
    return 0
  }

  private static func parseTime(_ text: String) throws(UsageError) -> Date {
    let formatter = ISO8601DateFormatter()
    guard let date = formatter.date(from: text) else { throw UsageError("--now must be an ISO 8601 time such as 2026-11-01T09:30:00Z") }
    return date
  }
}
