import ReckonEngine
import ReckonFacts
import ReckonPolicy

/// What `reckon explain` prints: a problem's code, name, kind and meaning, its catalogue
/// example and what `reckon check` (or `reckon test`) says of it, or the whole catalogue.
public enum DiagnosticExplanation {
  /// The entry for `id`.
  public static func text(for id: DiagnosticID) -> String {
    var lines = [
      "\(id.code) \(id.rawValue) (\(id.severity.rawValue))", "", "  \(id.summary)", "",
    ]
    guard let example = DiagnosticExample.of(id) else {
      lines.append("  " + whereFound(id))
      if let example = foundLater[id] {
        lines.append("")
        lines += foundLaterExample(example)
      }
      return lines.joined(separator: "\n").trimmingTrailingBlankLines() + "\n"
    }
    let (file, text, rendered) = rendering(example)
    lines.append("For example, \(file):")
    lines += text.split(separator: "\n", omittingEmptySubsequences: false).map { "  \($0)" }
    lines.append("")
    lines.append(example.tests == nil ? "reckon check says:" : "reckon test says:")
    lines += rendered.split(separator: "\n", omittingEmptySubsequences: false).map {
      $0.isEmpty ? "" : "  \($0)"
    }
    return lines.joined(separator: "\n").trimmingTrailingBlankLines() + "\n"
  }

  /// Every code with its name and meaning, one per line, in code order.
  public static func catalogue() -> String {
    DiagnosticID.allCases.sorted { $0.code < $1.code }.map {
      "\($0.code)  \($0.severity == .warning ? "warning" : "error  ")  \($0.rawValue): \($0.summary)"
    }.joined(separator: "\n") + "\n"
  }

  private static func whereFound(_ id: DiagnosticID) -> String {
    switch id {
    case .unansweredRequests:
      "Found before a policy goes live: reckon check and reckon serve decide a sample of requests of every product type and delivery status with it."
    default:
      "Found by reckon test, which checks a test's values against the policy it tests."
    }
  }

  /// The policy `foundLater`'s tests are for.
  private static let heavyUse = """
    let heavy = usage.consumed >= 80%
    rule "heavy use"
      when heavy
      then refund DECLINE
    otherwise share data only
    """

  /// Examples of the problems `reckon test` finds (a policy and a tests file for it) and of the
  /// one found before a policy goes live (a policy alone), run as those find them.
  private static let foundLater: [DiagnosticID: (policy: String, tests: String?)] = [
    .givenLet: (heavyUse, "test \"heavy\"\n  given heavy = true\n  expect refund DECLINE"),
    .invalidTestValue: (
      heavyUse, "test \"heavy\"\n  given usage.consumed = lots\n  expect refund DECLINE"
    ),
    .invalidExpectedValue: (
      heavyUse,
      "test \"heavy\"\n  given usage.consumed = 90%\n  expect consumptionPercentage = 5"
    ),
    .unansweredRequests: (
      "rule \"undelivered\"\n  when delivery.status != DELIVERED\n  then refund GRANT_PRORATED\n"
        + "otherwise share data only", nil
    ),
  ]

  /// The lines showing one of `foundLater`, and what the tool that finds it prints.
  private static func foundLaterExample(_ example: (policy: String, tests: String?)) -> [String] {
    let schema = FactSchema.standard
    let policy = SourceFile(path: "example.policy", text: example.policy)
    let loaded = PolicyLoader.load(policy, schema: schema.policySchema)
    var lines = ["For example, example.policy:"]
    lines += example.policy.split(separator: "\n", omittingEmptySubsequences: false).map {
      "  \($0)"
    }
    let rendered: String
    if let tests = example.tests, let compiled = loaded.policy {
      lines += ["", "and example.tests:"]
      lines += tests.split(separator: "\n", omittingEmptySubsequences: false).map { "  \($0)" }
      let source = SourceFile(path: "example.tests", text: tests)
      let diagnostics = PolicyTestRunner(policy: compiled).prepare(source).diagnostics
      lines += ["", "reckon test says:"]
      rendered = DiagnosticFormatter().render(diagnostics, in: source)
    } else {
      lines += ["", "reckon check says:"]
      rendered = loaded.withAnswerCoverage(schema: schema).renderedDiagnostics()
    }
    lines += rendered.split(separator: "\n", omittingEmptySubsequences: false).map {
      $0.isEmpty ? "" : "  \($0)"
    }
    return lines
  }

  /// The example's file name, its text, and what the tool prints for it.
  private static func rendering(_ example: DiagnosticExample) -> (String, String, String) {
    let schema = FactSchema.standard
    if let tests = example.tests {
      let source = SourceFile(path: "example.tests", text: tests)
      let diagnostics = PolicyTestParser.parse(source, vocabulary: schema.policySchema.vocabulary)
        .diagnostics
      return ("example.tests", tests, DiagnosticFormatter().render(diagnostics, in: source))
    }
    let source =
      example.contents.map { SourceFile(path: "example.policy", contents: $0) }
      ?? SourceFile(path: "example.policy", text: example.policy)
    let result = PolicyLoader.load(source, schema: schema.policySchema)
    return ("example.policy", source.text, result.renderedDiagnostics())
  }
}

extension String {
  fileprivate func trimmingTrailingBlankLines() -> String {
    var text = self
    while text.hasSuffix("\n") || text.hasSuffix(" ") { text.removeLast() }
    return text
  }
}
