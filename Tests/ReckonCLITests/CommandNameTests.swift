import Foundation
import ReckonEngine
import ReckonTestSupport
import Testing

@testable import ReckonStateSQLite

/// The tool's own words (a command's name, `help`, `version`) and a command called with no words
/// at all: a mistake is a usage error that says what was meant, never the overview and success.
struct CommandNameTests {
  @Test func aMistypedCommandGetsTheClosestName() async throws {
    let run = try await ReckonBinary.run(["chek", "policies"])
    #expect(run.status == 2)
    #expect(
      run.standardError
        == "reckon: unknown command 'chek' (did you mean 'check'?); 'reckon --help' lists them\n",
      "\(run.standardError)")
    #expect(run.standardOutput.isEmpty)
  }

  @Test func helpForACommandThatDoesNotExistIsAUsageError() async throws {
    let unknown = try await ReckonBinary.run(["help", "nosuch"])
    #expect(unknown.status == 2)
    #expect(
      unknown.standardError
        == "reckon help: unknown command 'nosuch'; 'reckon --help' lists them\n",
      "\(unknown.standardError)")
    #expect(unknown.standardOutput.isEmpty)
    let mistyped = try await ReckonBinary.run(["help", "chek"])
    #expect(mistyped.status == 2)
    #expect(
      mistyped.standardError.hasPrefix(
        "reckon help: unknown command 'chek' (did you mean 'check'?); 'reckon --help' lists them\n"),
      "\(mistyped.standardError)")
  }

  @Test(arguments: [["help"], ["help", "--help"], ["--help"]])
  func helpWithoutACommandPrintsTheOverview(_ words: [String]) async throws {
    let run = try await ReckonBinary.run(words)
    #expect(run.status == 0)
    #expect(run.standardOutput.hasPrefix("reckon: answers App Store refund requests"))
  }

  @Test func versionNamesTheReleaseAndTheSchemaANewDatabaseGets() async throws {
    let long = try await ReckonBinary.run(["--version"])
    let word = try await ReckonBinary.run(["version"])
    #expect(long.status == 0)
    #expect(word.status == 0)
    #expect(long.standardOutput == word.standardOutput)
    let lines = long.standardOutput.split(separator: "\n")
    #expect(lines.first == "reckon \(ReckonVersion.release)", "\(long.standardOutput)")
    let path = TestScratch.folder.appendingPathComponent("version-\(UUID().uuidString).sqlite").path
    let written = try SQLiteStateStore(path: path, rules: .appStore).schemaVersion()
    #expect(
      lines.dropFirst().first?.hasPrefix("state database schema \(written) (reads ") == true,
      "\(long.standardOutput)")
  }

  @Test(arguments: ["queue", "keys"])
  func aCommandThatNeedsASubcommandPrintsItsUsageWhenCalledBare(_ name: String) async throws {
    // The package root has no reckon.json: the usage must come before looking for one.
    let run = try await ReckonBinary.run([name])
    #expect(run.status == 2)
    #expect(run.standardError.hasPrefix("Usage: reckon \(name) "), "\(run.standardError)")
    #expect(!run.standardError.contains("reckon.json: "), "\(run.standardError)")
    #expect(run.standardOutput.isEmpty)
  }

  @Test func shortOptionsStandForTheirLongOnesAndDoubleDashEndsThem() async throws {
    let short = try await ReckonBinary.run([
      "eval", "-p", "policies/targeted.policy", "--fact", "usage.consumed=10%", "-f", "json",
    ])
    #expect(short.status == 0, "\(short.standardError)")
    #expect(short.standardOutput.hasPrefix("{"))
    let version = try await ReckonBinary.run(["-V"])
    #expect(version.status == 0)
    #expect(version.standardOutput.hasPrefix("reckon "))
    let ended = try await ReckonBinary.run(["check", "--", "--format"])
    #expect(ended.status == 1)
    #expect(ended.standardError.contains("--format"), "\(ended.standardError)")
  }

  @Test func aMistypedQueueCommandIsNamedBeforeAnyConfigurationIsRead() async throws {
    let run = try await ReckonBinary.run(["queue", "lst", "--config", "/nonexistent/reckon.json"])
    #expect(run.status == 2)
    #expect(run.standardError.contains("(did you mean 'list'?)"), "\(run.standardError)")
  }

  @Test func everyCommandsHelpListsItsExitStatuses() async throws {
    for command in ["check", "eval", "test", "dry-run", "queue", "serve", "version"] {
      let run = try await ReckonBinary.run([command, "--help"])
      #expect(run.standardOutput.contains("Exit status:\n  0    "), "\(command)")
      #expect(run.standardOutput.contains("  2    a usage mistake"), "\(command)")
    }
  }
}
