import Foundation
import ReckonEngine
import ReckonTestSupport
import Testing

@testable import ReckonStateSQLite

/// A `--since`/`--until` window that holds none of a state database's requests is reported as
/// such, with what the database does hold, never as an empty database; and an empty database
/// is still called empty.
struct EmptyWindowTests {
  /// A state database of 30 generated requests, all decided.
  static func database() async throws -> String {
    try await DryRunCommandTests.generated(30, state: true) + "/reckon-state.sqlite"
  }

  /// A state database with no request at all.
  static func emptyDatabase() throws -> String {
    let path = TestScratch.folder.appendingPathComponent(
      "reckon-empty-\(UUID().uuidString).sqlite"
    ).path
    _ = try SQLiteStateStore(path: path, rules: .appStore)
    return path
  }

  @Test(arguments: [
    (["--since", "2030-01-01"], "at or after 2030-01-01"),
    (
      ["--since", "2020-01-01", "--until", "2020-02-01"],
      "at or after 2020-01-01 and before 2020-02-01"
    ),
  ])
  func aDryRunOverAnEmptyWindowSaysWhatTheDatabaseHolds(_ window: [String], _ words: String)
    async throws
  {
    let state = try await Self.database()
    let run = try await ReckonBinary.run(
      ["dry-run", "--policy", "policies/targeted.policy", "--state", state] + window)
    #expect(run.status == 0, "\(run.standardError)")
    #expect(
      run.standardError.contains(
        "warning: nothing was decided: no request received \(words) (the database has 30 "
          + "requests, received from 20"), "\(run.standardError)")
    #expect(!run.standardError.contains("holds no CONSUMPTION_REQUEST"), "\(run.standardError)")
  }

  @Test(arguments: ["text", "json"])
  func anOutcomesReportOverAnEmptyWindowSaysWhatTheDatabaseHolds(_ format: String) async throws {
    let state = try await Self.database()
    let run = try await ReckonBinary.run([
      "report", "outcomes", "--state", state, "--since", "2030-01-01", "--format", format,
    ])
    #expect(run.status == 0, "\(run.standardError)")
    #expect(
      run.standardError.contains(
        "warning: nothing to report: no decided request received at or after 2030-01-01 (the "
          + "database has 30 decided requests, received from 20"), "\(run.standardError)")
    if format == "json" {
      // The note goes to standard error, so the JSON stays whole.
      #expect(
        try JSONSerialization.jsonObject(with: Data(run.standardOutput.utf8)) is [String: Any])
    }
  }

  @Test func aWindowThatHoldsRequestsHasNoNote() async throws {
    let state = try await Self.database()
    let dryRun = try await ReckonBinary.run([
      "dry-run", "--policy", "policies/targeted.policy", "--state", state, "--since", "2000-01-01",
    ])
    #expect(!dryRun.standardError.contains("warning"), "\(dryRun.standardError)")
    let report = try await ReckonBinary.run([
      "report", "outcomes", "--state", state, "--since", "2000-01-01",
    ])
    #expect(!report.standardError.contains("warning"), "\(report.standardError)")
  }

  @Test(arguments: [[], ["--since", "2030-01-01"]])
  func anEmptyDatabaseIsStillCalledEmpty(_ window: [String]) async throws {
    let state = try Self.emptyDatabase()
    let dryRun = try await ReckonBinary.run(
      ["dry-run", "--policy", "policies/targeted.policy", "--state", state] + window)
    #expect(
      dryRun.standardError.contains(
        "warning: nothing was decided: the state database \(state) holds no CONSUMPTION_REQUEST"),
      "\(dryRun.standardError)")
    let report = try await ReckonBinary.run(["report", "outcomes", "--state", state] + window)
    #expect(
      report.standardError.contains(
        "warning: nothing to report: the state database \(state) holds no decided or imported request"
      ),
      "\(report.standardError)")
  }
}
