import Foundation
import ReckonTestSupport
import Testing

@testable import ReckonEngine
@testable import ReckonStateSQLite

/// `reckon prune`: removes old records from the state database a configuration names, says
/// what it removed, and refuses a cutoff Apple may still send notifications from.
struct PruneCommandTests {
  /// Runs `reckon prune ARGUMENTS --state` on `folder`'s generated database.
  static func prune(_ arguments: [String], in folder: String) async throws -> ReckonBinary.Run {
    try await ReckonBinary.run(
      ["prune"] + arguments + ["--state", folder + "/reckon-state.sqlite"])
  }

  /// The counts of a `--format json` run.
  static func counts(_ run: ReckonBinary.Run) throws -> [String: Int] {
    let object = try JSONSerialization.jsonObject(with: Data(run.standardOutput.utf8))
    return ((object as? [String: Any])?["counts"] as? [String: Int]) ?? [:]
  }

  @Test func aDryRunCountsWhatThePruneThenRemovesAndTheReportReadsWhatIsLeft() async throws {
    // 90 days of history ending at midnight today: a 30-day cutoff leaves about a third.
    let folder = try await ReportOutcomesOptionTests.generated()
    let before = try await ReckonBinary.run([
      "report", "outcomes", "--state", folder + "/reckon-state.sqlite", "--format", "json",
    ])
    let trial = try await Self.prune(
      ["--older-than", "30", "--dry-run", "--format", "json"], in: folder)
    #expect(trial.status == 0, "\(trial.standardError)")
    let unchanged = try await ReckonBinary.run([
      "report", "outcomes", "--state", folder + "/reckon-state.sqlite", "--format", "json",
    ])
    #expect(unchanged.standardOutput == before.standardOutput)
    let run = try await Self.prune(["--older-than", "30", "--format", "json"], in: folder)
    #expect(run.status == 0, "\(run.standardError)")
    let removed = try Self.counts(run)
    #expect(removed == (try Self.counts(trial)))
    #expect((removed["notifications"] ?? 0) > 0 && (removed["decisions"] ?? 0) > 0)
    let after = try await ReckonBinary.run([
      "report", "outcomes", "--state", folder + "/reckon-state.sqlite", "--format", "json",
    ])
    #expect(after.status == 0, "\(after.standardError)")
    #expect(after.standardOutput != before.standardOutput)
    let again = try await Self.prune(["--older-than", "30"], in: folder)
    #expect(again.standardOutput.hasPrefix("nothing to prune"), "\(again.standardOutput)")
  }

  @Test func theTextSaysWhatWasRemovedAndADryRunSaysNothingChanged() async throws {
    let folder = try await ReportOutcomesOptionTests.generated()
    let trial = try await Self.prune(["--older-than", "30", "--dry-run"], in: folder)
    #expect(trial.standardOutput.hasPrefix("would remove, received before "))
    #expect(trial.standardOutput.contains("(dry run: nothing was changed)"))
    let run = try await Self.prune(["--older-than", "30"], in: folder)
    #expect(run.standardOutput.hasPrefix("removed, received before "), "\(run.standardOutput)")
    #expect(run.standardOutput.contains(" notifications, "))
  }

  @Test(arguments: [
    ([], "say what to prune"),
    (["--older-than", "30", "--before", "2026-01-01"], "not both"),
    (["--older-than", "3"], "the last 7 days are always kept"),
    (["--older-than", "-30"], "give --older-than 7 or more"),
    (["--older-than", "99999999999"], "whole number of days"),
    (["--older-than", "a year"], "whole number of days"),
    (["--older-than", "30", "--format", "csv"], "--format must be text or json"),
  ])
  func aMistakenCutoffIsAUsageError(arguments: [String], message: String) async throws {
    let folder = try await ReportOutcomesOptionTests.generated()
    let run = try await Self.prune(arguments, in: folder)
    #expect(run.status == 2, "\(run.standardError)")
    #expect(run.standardError.contains(message), "\(run.standardError)")
  }

  @Test func aCutoffWithinTheLastSevenDaysIsRefusedBeforeTheFileIsOpened() async throws {
    let folder = try await ReportOutcomesOptionTests.generated()
    let yesterday = Date().addingTimeInterval(-86_400).formatted(.iso8601)
    let run = try await Self.prune(["--before", yesterday], in: folder)
    #expect(run.status == 2)
    #expect(run.standardError.contains("or earlier"), "\(run.standardError)")
    let missing = try await ReckonBinary.run([
      "prune", "--before", yesterday, "--state", folder + "/missing.sqlite",
    ])
    #expect(missing.status == 2, "\(missing.standardError)")
    let trial = try await Self.prune(["--older-than", "7", "--dry-run"], in: folder)
    #expect(trial.status == 0, "\(trial.standardError)")
  }

  /// A dry run reads the file as it is: an older Reckon's file stays at its schema, so that
  /// Reckon can still open it.
  @Test func aDryRunNeitherMigratesNorWritesTheFile() async throws {
    let folder = try await ReportOutcomesOptionTests.generated()
    let path = folder + "/reckon-state.sqlite"
    let store = try SQLiteStateStore(path: path, rules: .appStore)
    try store.connection.execute(
      """
      ALTER TABLE outbox DROP COLUMN advanced_commerce; DROP INDEX requests_by_repeat;
      DROP INDEX outbox_by_request; DELETE FROM schema_migrations WHERE version >= 8
      """
    )
    _ = try store.checkpoint()
    let before = try Data(contentsOf: URL(fileURLWithPath: path))
    let trial = try await Self.prune(["--older-than", "30", "--dry-run"], in: folder)
    #expect(trial.status == 0, "\(trial.standardError)")
    #expect(trial.standardOutput.hasPrefix("would remove"))
    #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
    #expect(try store.schemaVersion() == 7)
  }
}
