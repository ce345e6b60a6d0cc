import ReckonFacts
import ReckonPolicy
import Testing

/// Every diagnostic the code can produce, pinned as the author sees it: the catalogue's example
/// of each, loaded against the standard facts, draws that problem alone and renders as its
/// golden file.
struct DiagnosticExampleTests {
  static func load(_ example: DiagnosticExample, path: String = "test.policy")
    -> PolicyLoader.Result
  {
    let schema = FactSchema.standard.policySchema
    if let contents = example.contents {
      return PolicyLoader.load(SourceFile(path: path, contents: contents), schema: schema)
    }
    return PolicyLoader.load(SourceFile(path: path, text: example.policy), schema: schema)
  }

  /// The tests file's diagnostics and their rendering.
  static func parseTests(_ example: DiagnosticExample, path: String) -> (
    ids: [DiagnosticID], rendered: String
  )? {
    guard let tests = example.tests else { return nil }
    let source = SourceFile(path: path, text: tests)
    let diagnostics = PolicyTestParser.parse(source, vocabulary: FactSchema.words).diagnostics
    return (diagnostics.map(\.id), DiagnosticFormatter().render(diagnostics, in: source))
  }

  /// Problems only `reckon test` finds (ReckonTools checks a test's values against the policy);
  /// their examples are in ReckonToolsTests.
  static let foundByTheTestRunner: Set<DiagnosticID> = [
    .givenLet, .invalidTestValue, .invalidExpectedValue,
  ]

  /// Problems only the host finds, deciding sample requests with a policy before it goes live
  /// (`AnswerCoverage` in ReckonEngine); their examples are in ReckonEngineTests.
  static let foundByTheHost: Set<DiagnosticID> = [.unansweredRequests]

  @Test("each diagnostic renders as its golden file", arguments: DiagnosticExample.all.map(\.id))
  func rendersAsSnapshot(_ id: DiagnosticID) throws {
    let example = try #require(DiagnosticExample.of(id))
    if let (ids, rendered) = Self.parseTests(example, path: "policies/example.tests") {
      #expect(ids == [id], "\(rendered)")
      Snapshot.expect(rendered, matches: "diagnostic-\(id.rawValue)")
      return
    }
    let result = Self.load(example, path: "policies/example.policy")
    #expect(result.diagnostics.map(\.id) == [id], "\(result.renderedDiagnostics())")
    #expect(result.diagnostics.allSatisfy { $0.severity == $0.id.severity })
    Snapshot.expect(result.renderedDiagnostics(), matches: "diagnostic-\(id.rawValue)")
  }

  @Test func everyDiagnosticIDHasAnExample() {
    let covered = Set(DiagnosticExample.all.map(\.id)).union(Self.foundByTheTestRunner).union(
      Self.foundByTheHost)
    let missing = DiagnosticID.allCases.filter { !covered.contains($0) }
    #expect(missing.isEmpty)
    #expect(
      DiagnosticExample.all.count + Self.foundByTheTestRunner.count + Self.foundByTheHost.count
        == DiagnosticID.allCases.count)
  }

  @Test func warningsDoNotStopALoadButErrorsDo() {
    for example in DiagnosticExample.all where example.tests == nil {
      let result = Self.load(example)
      let isWarning = result.diagnostics.allSatisfy { $0.severity == .warning }
      #expect((result.policy != nil) == isWarning, "\(example.id)")
    }
  }

  @Test func oneRunReportsEveryProblemInTheFile() {
    let policy = """
      policy "many problems"
      policy "twice"

      let used = usage.consumd

      rule "stray character"
        when reason == LEGAL & used > 0%
        then refund DECLINE

      rule "missing then"
        when reason == OTHER
        refund GRANT_FULL

      rule "bad value"
        when delivery.status != DELIVERD
        then refund GRANT_FULL

      rule "bad type"
        when customer.account_age > 30
        then refnd DECLINE

      rule "conflict"
        when product.type == CONSUMABLE
        then refund GRANT_FULL, refund DECLINE

      otherwise share data only
      """
    let result = PolicyLoader.load(
      SourceFile(path: "policies/many.policy", text: policy),
      schema: FactSchema.standard.policySchema)
    #expect(
      result.diagnostics.map(\.id) == [
        .duplicateHeader, .unknownFact, .unexpectedCharacter, .missingThen, .missingThen,
        .unknownEnumValue,
        .typeMismatch, .unknownAction, .conflictingActions,
      ])
    Snapshot.expect(result.renderedDiagnostics(), matches: "diagnostics-all-in-one-run")
  }
}
