import Foundation
import ReckonEngine
import ReckonTestSupport
import ReckonTools
import Testing

/// `reckon eval`'s work as a library call: one request decided from files, nothing recorded.
struct RequestEvaluationTests {
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

  static func path(_ relative: String) -> String {
    root.appendingPathComponent(relative).path
  }

  @Test func theBundledExampleIsDecidedByItsRule() throws {
    var warnings: [String] = []
    let outcome = try RequestEvaluation.decide(
      policyPath: Self.path("policies/targeted.policy"),
      requestPath: Self.path("examples/eval/request.json"),
      factsPath: Self.path("examples/eval/facts.json"), now: nil, traces: false,
      warn: { warnings.append($0) })
    guard case .decided(let decision, let policy) = outcome else {
      Issue.record("not decided: \(outcome)")
      return
    }
    #expect(decision.body != nil)
    #expect(decision.trace == nil)
    #expect(policy.checked.name == "targeted")
    #expect(warnings.isEmpty, "\(warnings)")
  }

  @Test func aPolicyThatDoesNotCheckIsRefusedWithItsDiagnosticsWarnedFirst() throws {
    let policy = TestScratch.folder.appendingPathComponent("broken-\(UUID().uuidString).policy")
    try Data("rule \"r\" when usage.consumed < 10% then refund GRANT_FUL\n".utf8).write(to: policy)
    var warnings: [String] = []
    let outcome = try RequestEvaluation.decide(
      policyPath: policy.path, requestPath: Self.path("examples/eval/request.json"),
      factsPath: Self.path("examples/eval/facts.json"), now: nil, traces: true,
      warn: { warnings.append($0) })
    guard case .policyRefused = outcome else {
      Issue.record("not refused: \(outcome)")
      return
    }
    #expect(warnings.count == 1)
    #expect(warnings.first?.contains("GRANT_FUL") == true, "\(warnings)")
  }

  @Test func aFactOnlyTheRequestGivesIsWarnedAboutAndIgnored() throws {
    let facts = TestScratch.folder.appendingPathComponent("facts-\(UUID().uuidString).json")
    let original = try Data(contentsOf: URL(fileURLWithPath: Self.path("examples/eval/facts.json")))
    var object = try #require(JSONSerialization.jsonObject(with: original) as? [String: Any])
    object["reason"] = "LEGAL"
    try JSONSerialization.data(withJSONObject: object).write(to: facts)
    var warnings: [String] = []
    _ = try RequestEvaluation.decide(
      policyPath: Self.path("policies/targeted.policy"),
      requestPath: Self.path("examples/eval/request.json"), factsPath: facts.path, now: nil,
      traces: false, warn: { warnings.append($0) })
    #expect(warnings.count == 1)
    #expect(warnings.first?.contains("reason is ignored") == true, "\(warnings)")
  }

  @Test func aRequestForNoConfiguredAppAsksForAPolicy() async throws {
    let folder = TestScratch.folder.appendingPathComponent("eval-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let config = folder.appendingPathComponent("reckon.json")
    try Data(
      #"{"apps": [{"bundleId": "com.example.other", "environment": "Sandbox", "policy": "p.policy"}]}"#
        .utf8
    ).write(to: config)
    await #expect {
      try await RequestEvaluation.decide(
        configurationPath: config.path, policyPath: nil,
        requestPath: Self.path("examples/eval/request.json"),
        factsPath: Self.path("examples/eval/facts.json"), now: nil, traces: false, warn: { _ in })
    } throws: { error in
      guard let failure = error as? RequestEvaluation.Failure else { return false }
      return failure.description.hasPrefix("\(config.path): no app for bundle ")
        && failure.description.hasSuffix("in this environment; give --policy")
    }
  }
}
