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

  /// A date that is no date is a usage error naming its option, in each command that takes one.
  @Test(arguments: [
    ["dry-run", "--policy", "policies/targeted.policy", "--state", "reckon-state.sqlite"],
    ["report", "outcomes", "--state", "reckon-state.sqlite"],
  ])
  func aSinceThatIsNoDateIsAUsageErrorNamingTheOption(_ command: [String]) async throws {
    let run = try await ReckonBinary.run(command + ["--since", "2026-13-01"])
    #expect(run.status == 2, "\(run.standardError)")
    #expect(
      run.standardError.contains("--since: '2026-13-01' is not a date"), "\(run.standardError)")
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

  @Test func importHistoryRefusesSinceNotBeforeUntilBeforeFetchingAnything() async throws {
    let folder = try await DryRunCommandTests.generated(20)
    let run = try await ReckonBinary.run([
      "import-history", "--config", folder + "/reckon.json", "--since", "2026-11-02", "--until",
      "2026-11-01",
    ])
    #expect(run.status == 2)
    #expect(
      run.standardError.contains("--since 2026-11-02 must be before --until 2026-11-01"),
      "\(run.standardError)")
    #expect(run.standardOutput.isEmpty)
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

  /// A requests file whose second line has an out-of-range number where a time belongs.
  @Test(
    arguments: ["text", "csv", "json"],
    [
      (#""signedDate":1793522400000"#, #""signedDate":1e30"#, "signedDate"),
      (#""signedDate":1793522400000"#, #""signedDate":-1e300"#, "signedDate"),
      (#""purchaseDate":"#, #""purchaseDate":1e30,"ignored":"#, "purchaseDate"),
    ])
  func aTimeOutOfRangeIsABadLine(
    _ format: String, _ replacement: (original: String, bad: String, field: String)
  ) async throws {
    let folder = TestScratch.folder.appendingPathComponent("reckon-dates-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let line = try String(
      contentsOf: ReckonBinary.packageRoot.appendingPathComponent(
        "Tests/ReckonCLITests/Fixtures/request.json"), encoding: .utf8
    ).split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.joined()
      .replacingOccurrences(of: "\": ", with: "\":")
    #expect(line.contains(replacement.original))
    let bad = line.replacingOccurrences(of: replacement.original, with: replacement.bad)
    let requests = folder.appendingPathComponent("requests.jsonl").path
    try Data((line + "\n" + bad + "\n").utf8).write(to: URL(fileURLWithPath: requests))
    let facts = folder.appendingPathComponent("facts.json").path
    try Data(#"{"byTransactionId": {}}"#.utf8).write(to: URL(fileURLWithPath: facts))
    let run = try await ReckonBinary.run([
      "dry-run", "--policy", "policies/targeted.policy", "--requests", requests,
      "--facts", facts, "--format", format,
    ])
    #expect(run.status == 1, "\(run.standardError)")
    #expect(run.standardError.contains("\(requests):2: "), "\(run.standardError)")
    #expect(run.standardError.contains(replacement.field), "\(run.standardError)")
    #expect(!run.standardError.contains("Fatal error"))
  }
}
