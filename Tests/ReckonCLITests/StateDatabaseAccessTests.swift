import Foundation
import Testing

/// Commands open only a Reckon state database that exists: the read-only ones never create or
/// change a file, and the ones that write never add Reckon's tables to someone else's.
struct StateDatabaseAccessTests {
  /// A read-only command, pointed at a file that is not a state database.
  enum Reader: String, CaseIterable, CustomTestStringConvertible {
    case dryRun, reportOutcomes, queueList, queueShow

    var testDescription: String { rawValue }

    func run(on path: String, in folder: String) async throws -> ReckonBinary.Run {
      switch self {
      case .dryRun:
        try await ReckonBinary.run([
          "dry-run", "--policy", "policies/targeted.policy", "--state", path,
        ])
      case .reportOutcomes:
        try await ReckonBinary.run(["report", "outcomes", "--state", path])
      case .queueList, .queueShow:
        try await ReckonBinary.run(
          ["queue"] + (self == .queueList ? ["list"] : ["show", "1"]) + [
            "--config", try StateDatabaseAccessTests.configuration(statePath: path, in: folder),
          ])
      }
    }
  }

  /// A `reckon.json` in `folder` whose `state.path` is `statePath`.
  static func configuration(statePath: String, in folder: String) throws -> String {
    let path = folder + "/reckon-\(UUID().uuidString).json"
    let policy = ReckonBinary.packageRoot.path + "/policies/targeted.policy"
    let json = """
      {"apps": [{"bundleId": "com.example", "environment": "Sandbox", "policy": "\(policy)"}],
       "state": {"path": "\(statePath)"}}
      """
    try Data(json.utf8).write(to: URL(fileURLWithPath: path))
    return path
  }

  @Test(arguments: Reader.allCases)
  func aReaderRefusesAnotherSQLiteFileAndLeavesItAlone(_ reader: Reader) async throws {
    let folder = try await DryRunCommandTests.generated(20)
    let facts = folder + "/facts.sqlite"
    let before = try Data(contentsOf: URL(fileURLWithPath: facts))
    let run = try await reader.run(on: facts, in: folder)
    #expect(run.status != 0)
    #expect(
      run.standardError.contains("\(facts) is not a Reckon state database"), "\(run.standardError)")
    #expect(try Data(contentsOf: URL(fileURLWithPath: facts)) == before)
  }

  @Test(arguments: Reader.allCases)
  func aReaderRefusesAMissingFileWithoutCreatingIt(_ reader: Reader) async throws {
    let folder = try await DryRunCommandTests.generated(20)
    let missing = folder + "/reckon-state-typo.sqlite"
    let run = try await reader.run(on: missing, in: folder)
    #expect(run.status != 0)
    #expect(run.standardError.contains("no such file"), "\(run.standardError)")
    #expect(!FileManager.default.fileExists(atPath: missing))
  }

  /// An empty file, which `reckon serve` takes as a new state, is said to hold no state yet,
  /// as doctor says, not to be another program's, and is left as it is.
  @Test(arguments: Reader.allCases)
  func aReaderSaysAnEmptyFileHoldsNoStateYet(_ reader: Reader) async throws {
    let folder = try await DryRunCommandTests.generated(20)
    let empty = folder + "/reckon-state-\(UUID().uuidString).sqlite"
    #expect(FileManager.default.createFile(atPath: empty, contents: nil))
    let run = try await reader.run(on: empty, in: folder)
    #expect(run.status != 0)
    #expect(run.standardError.contains("holds no Reckon state yet"), "\(run.standardError)")
    #expect(try Data(contentsOf: URL(fileURLWithPath: empty)).isEmpty)
    let doctor = try await ReckonBinary.run([
      "doctor", "--offline", "--config", try Self.configuration(statePath: empty, in: folder),
    ])
    #expect(
      doctor.standardOutput.contains("is a file that holds no Reckon state yet"),
      "\(doctor.standardOutput)")
    // A command that reads history from the configured state decides without it, as before the
    // file was made.
    let eval = try await ReckonBinary.run([
      "eval", "--config", try Self.configuration(statePath: empty, in: folder), "--policy",
      ReckonBinary.packageRoot.path + "/policies/targeted.policy", "--request",
      ReckonBinary.packageRoot.path + "/examples/eval/request.json",
    ])
    #expect(eval.status == 0, "\(eval.standardError)")
  }

  @Test(arguments: ["approve", "retry", "drop"])
  func aWritingQueueCommandRefusesAnotherSQLiteFile(_ verb: String) async throws {
    let folder = try await DryRunCommandTests.generated(20)
    let facts = folder + "/facts.sqlite"
    let before = try Data(contentsOf: URL(fileURLWithPath: facts))
    let run = try await ReckonBinary.run([
      "queue", verb, "1", "--config", try Self.configuration(statePath: facts, in: folder),
    ])
    #expect(run.status != 0)
    #expect(
      run.standardError.contains("\(facts) is not a Reckon state database"), "\(run.standardError)")
    #expect(try Data(contentsOf: URL(fileURLWithPath: facts)) == before)
  }

  @Test func readersStillReadAReckonStateDatabase() async throws {
    let fixture = try QueueFixture()
    let list = try await fixture.queue(["list"])
    #expect(list.status == 0, "\(list.standardError)")
    #expect(list.standardOutput.contains("\t2001\t"))
    let folder = try await DryRunCommandTests.generated(20, state: true)
    let report = try await ReckonBinary.run([
      "report", "outcomes", "--state", folder + "/reckon-state.sqlite",
    ])
    #expect(report.status == 0, "\(report.standardError)")
    #expect(report.standardOutput.hasPrefix("20 decisions"))
  }
}
