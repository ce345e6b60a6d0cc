import Foundation
import ReckonTestSupport
import Testing

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
    (["--older-than", "3"], "at least 7 days are kept"),
    (["--older-than", "a year"], "whole number of days"),
    (["--older-than", "30", "--format", "csv"], "--format must be text or json"),
  ])
  func aMistakenCutoffIsAUsageError(arguments: [String], message: String) async throws {
    let folder = try await ReportOutcomesOptionTests.generated()
    let run = try await Self.prune(arguments, in: folder)
    #expect(run.status == 2, "\(run.standardError)")
    #expect(run.standardError.contains(message), "\(run.standardError)")
  }

  @Test func aCutoffWithinTheLastSevenDaysIsRefusedSayingWhichWouldDo() async throws {
    let folder = try await ReportOutcomesOptionTests.generated()
    let yesterday = Date().addingTimeInterval(-86_400).formatted(.iso8601)
    let run = try await Self.prune(["--before", yesterday], in: folder)
    #expect(run.status == 1)
    #expect(run.standardError.contains("give a cutoff at or before"), "\(run.standardError)")
    let trial = try await Self.prune(["--older-than", "7", "--dry-run"], in: folder)
    #expect(trial.status == 0, "\(trial.standardError)")
  }
}
