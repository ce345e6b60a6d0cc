import Foundation
import ReckonTestSupport
import Testing

/// `reckon standin --record FILE` appends to what the file holds and refuses a file it cannot
/// write, rather than erasing it or recording nothing without a word.
struct StandInRecordTests {
  /// A folder with a configuration whose stand-in key `--create-key` makes.
  static func workspace() throws -> String {
    let folder = TestScratch.folder.appendingPathComponent("reckon-standin-\(UUID().uuidString)")
      .path
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    let configuration = """
      {
        "apps": [{ "bundleId": "com.example.coins", "appAppleId": 1234567890, "environment": "Production", "policy": "\(ReckonBinary.packageRoot.path)/policies/targeted.policy" }],
        "appStore": { "issuerId": "00000000-0000-0000-0000-000000000000", "keyId": "TEST123", "privateKeyPath": "\(folder)/key.p8" }
      }
      """
    try Data(configuration.utf8).write(to: URL(fileURLWithPath: folder + "/reckon.json"))
    return folder
  }

  /// A stand-in started with `--record record`, once it listens or exits (20 s at most), and
  /// its standard output and error files.
  static func start(_ folder: String, record: String) async throws -> (ChildProcess, String, String)
  {
    let process = ChildProcess()
    process.executableURL = try ReckonBinary.location()
    process.arguments = [
      "standin", "--config", folder + "/reckon.json", "--create-key", "--record", record,
    ]
    let output = folder + "/stdout.txt"
    let error = folder + "/stderr.txt"
    try #require(FileManager.default.createFile(atPath: output, contents: nil))
    try #require(FileManager.default.createFile(atPath: error, contents: nil))
    process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: output))
    process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: error))
    try process.run()
    let started = Date()
    while Date().timeIntervalSince(started) < 20, process.isRunning,
      !((try? String(contentsOfFile: output, encoding: .utf8))?.contains("listening") ?? false)
    {
      try await Task.sleep(nanoseconds: 50_000_000)
    }
    return (process, output, error)
  }

  /// Stops `process` (SIGTERM) if it still runs and waits for it.
  static func stop(_ process: ChildProcess) {
    if process.isRunning { process.terminate() }
    process.waitUntilExit()
  }

  @Test func aRecordFileThatCannotBeWrittenIsRefusedBeforeListening() async throws {
    let folder = try Self.workspace()
    let record = folder + "/no-such-folder/requests.jsonl"
    let (process, output, error) = try await Self.start(folder, record: record)
    let wasRunning = process.isRunning
    Self.stop(process)
    #expect(!wasRunning, "the stand-in started although it cannot record")
    #expect(process.terminationStatus != 0)
    #expect(try !String(contentsOfFile: output, encoding: .utf8).contains("listening"))
    let message = try String(contentsOfFile: error, encoding: .utf8)
    #expect(message.contains("--record \(record)"), "\(message)")
  }

  @Test func whatTheRecordFileHeldIsKept() async throws {
    let folder = try Self.workspace()
    let record = folder + "/kept.json"
    let mine = Data("{\"the user's\": \"own file\"}\n".utf8)
    try mine.write(to: URL(fileURLWithPath: record))
    let (process, output, _) = try await Self.start(folder, record: record)
    #expect(try String(contentsOfFile: output, encoding: .utf8).contains("listening"))
    Self.stop(process)
    #expect(process.terminationStatus == 0)
    #expect(try Data(contentsOf: URL(fileURLWithPath: record)) == mine)
  }

  /// The first record starts on a line of its own, even after a file that does not end its
  /// last line.
  @Test func aRecordFileWithoutAFinalLineBreakGetsOneBeforeTheRecords() async throws {
    let folder = try Self.workspace()
    let record = folder + "/unended.txt"
    try Data("mine, no line break".utf8).write(to: URL(fileURLWithPath: record))
    let (process, _, _) = try await Self.start(folder, record: record)
    Self.stop(process)
    #expect(try String(contentsOfFile: record, encoding: .utf8) == "mine, no line break\n")
  }
}
