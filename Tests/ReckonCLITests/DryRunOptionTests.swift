import Foundation
import ReckonTestSupport
import Testing

/// `reckon dry-run` refuses what it cannot do as asked, instead of doing something else and
/// exiting 0.
struct DryRunOptionTests {
  @Test func aBrokenAgainstPolicyFailsLikeABrokenPolicy() async throws {
    let folder = try await DryRunCommandTests.generated(20)
    let run = try await ReckonBinary.run([
      "dry-run", "--config", folder + "/reckon.json", "--policy", "policies/targeted.policy",
      "--requests", folder + "/requests.jsonl",
      "--against", "Tests/ReckonCLITests/Fixtures/misspelled.policy",
    ])
    #expect(run.status == 1)
    #expect(run.standardError.contains("misspelled.policy:"), "\(run.standardError)")
    #expect(run.standardOutput.isEmpty)
  }
}
