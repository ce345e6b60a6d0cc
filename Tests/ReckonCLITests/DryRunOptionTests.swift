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

  @Test(arguments: [("2026-10-02", "2026-10-01"), ("2026-10-01", "2026-10-01")])
  func sinceNotBeforeUntilIsRefused(_ since: String, _ until: String) async throws {
    let folder = try await DryRunCommandTests.generated(20, state: true)
    let run = try await ReckonBinary.run([
      "dry-run", "--policy", "policies/targeted.policy", "--state",
      folder + "/reckon-state.sqlite", "--since", since, "--until", until,
    ])
    #expect(run.status == 2)
    #expect(
      run.standardError.contains("--since \(since) must be before --until \(until)"),
      "\(run.standardError)")
  }

  @Test(arguments: ["since", "until"])
  func sinceAndUntilAreRefusedWithRequests(_ option: String) async throws {
    let folder = try await DryRunCommandTests.generated(20)
    let run = try await ReckonBinary.run([
      "dry-run", "--config", folder + "/reckon.json", "--policy", "policies/targeted.policy",
      "--requests", folder + "/requests.jsonl", "--\(option)", "2026-10-01",
    ])
    #expect(run.status == 2)
    #expect(
      run.standardError.contains("--\(option) selects requests in --state"),
      "\(run.standardError)")
    #expect(run.standardOutput.isEmpty)
  }

  @Test func helpSaysUntilIsExclusiveAndOnlyForState() async throws {
    let help = try await ReckonBinary.run(["dry-run", "--help"]).standardOutput
    #expect(help.contains("received before DATE (exclusive)"))
    #expect(help.contains("With --requests both are refused"))
    #expect(!help.contains("up to --until"))
  }
}
