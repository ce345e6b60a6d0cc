import Foundation
import ReckonEngine
import ReckonPolicy
import Testing

@testable import ReckonTools

/// The policies in `policies/` are what users start from: each must check cleanly, have a tests
/// file, pass it, and have every rule reached by some test.
struct ShippedPoliciesTests {
  static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("../../policies")
    .standardizedFileURL.path

  static let policyPaths: [String] = (try? PolicyFiles.expand([folder])) ?? []

  @Test func theFolderHoldsTheReadyMadeAndCookbookPolicies() throws {
    let names = Set(
      Self.policyPaths.map { URL(fileURLWithPath: $0).deletingPathExtension().lastPathComponent })
    let expected: Set<String> = [
      "prefer-refund", "prefer-no-refund", "share-data-only", "do-not-respond", "targeted",
      "decline-first-grant-next",
      "heavy-use", "fulfilment-problems", "serial-refunders", "customer-overrides",
      "hold-high-value",
    ]
    #expect(expected.isSubset(of: names))
  }

  @Test(arguments: policyPaths)
  func checksWithoutErrorsOrWarnings(path: String) throws {
    let result = try PolicyFiles.load(path)
    #expect(result.diagnostics.isEmpty, "\(result.renderedDiagnostics())")
  }

  /// Before it goes live, a policy is refused if some kind of request would get no reply.
  @Test(arguments: policyPaths)
  func answersEveryKindOfRequest(path: String) throws {
    let policy = try #require(try PolicyFiles.load(path).policy)
    let gaps = AnswerCoverage(policy: policy, schema: .standard).gaps
    #expect(gaps.isEmpty, "\(gaps)")
  }

  @Test(arguments: policyPaths)
  func passesItsTestsAndReachesEveryRule(path: String) throws {
    let testsPath = String(path.dropLast(".policy".count)) + ".tests"
    #expect(FileManager.default.fileExists(atPath: testsPath), "\(path) has no tests file")
    let report = try PolicyTestRunner.run(testsPath: testsPath)
    #expect(report.passed, "\(report.render(explainer: nil))")
    let coverage = try #require(report.coverage)
    #expect(coverage.undecidedRules.isEmpty, "decide no test: \(coverage.undecidedRules)")
  }

  @Test(arguments: [
    "prefer-refund", "prefer-no-refund", "share-data-only", "do-not-respond", "targeted",
    "decline-first-grant-next",
  ])
  func readyMadePolicyHonoursTheCustomerOverride(name: String) throws {
    let text = try String(contentsOfFile: "\(Self.folder)/\(name).policy", encoding: .utf8)
    for choice in ["GRANT_FULL", "GRANT_PRORATED", "DECLINE", "DO_NOT_RESPOND"] {
      #expect(
        text.contains("customer.override == \(choice)"), "\(name) ignores an override of \(choice)")
    }
  }
}
