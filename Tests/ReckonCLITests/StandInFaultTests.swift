import Foundation
import ReckonEngine
import ReckonTestSupport
import Testing

@testable import ReckonStateSQLite

/// `reckon standin --answer STATUS --times N` rehearses an App Store outage with the shipped
/// tools: the sender meets Apple's error, retries, and the reply goes out once it answers 202.
struct StandInFaultTests {
  @Test func aServerErrorAnsweredOnceIsRetriedAndTheReplyThenAccepted() async throws {
    let folder = TestScratch.folder.appendingPathComponent("standin-fault-\(UUID().uuidString)")
      .path
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    let store = try SQLiteStateStore(path: folder + "/reckon-state.sqlite", rules: .appStore)
    _ = try QueueFixture.enqueue(in: store, at: Date(), transaction: "3001", hold: false)
    let configuration = folder + "/reckon.json"
    func configure(baseURL: String?) throws {
      let policy = ReckonBinary.packageRoot.path + "/policies/targeted.policy"
      let json = """
        {"apps": [{"bundleId": "com.example", "appAppleId": 1234567890, "environment": "Production", "policy": "\(policy)"}],
         "state": {"path": "reckon-state.sqlite"},
         "sender": {"initialBackoffSeconds": 0.2, "maximumBackoffSeconds": 0.2},
         "appStore": {"issuerId": "00000000-0000-0000-0000-000000000000", "keyId": "TEST123",
                      "privateKeyPath": "\(folder)/key.p8"\(baseURL.map { #", "baseURL": "\#($0)""# } ?? "")}}
        """
      try Data(json.utf8).write(to: URL(fileURLWithPath: configuration))
    }
    try configure(baseURL: nil)
    let record = folder + "/requests.jsonl"
    let standIn = ChildProcess()
    standIn.executableURL = try ReckonBinary.location()
    standIn.arguments = [
      "standin", "--config", configuration, "--create-key", "--answer", "500", "--times", "1",
      "--record", record,
    ]
    let output = folder + "/standin.out"
    try #require(FileManager.default.createFile(atPath: output, contents: nil))
    standIn.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: output))
    let errors = folder + "/standin.err"
    try #require(FileManager.default.createFile(atPath: errors, contents: nil))
    standIn.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: errors))
    try standIn.run()
    defer { if standIn.isRunning { kill(standIn.processIdentifier, SIGKILL) } }
    var url: String?
    let started = Date()
    while url == nil, Date().timeIntervalSince(started) < 20, standIn.isRunning {
      url = (try? String(contentsOfFile: output, encoding: .utf8))?
        .split(separator: "\n").first { $0.hasPrefix("listening on ") }
        .map { String($0.dropFirst("listening on ".count)) }
      if url == nil { try await Task.sleep(nanoseconds: 50_000_000) }
    }
    let baseURL = try #require(
      url,
      "the stand-in did not listen: \((try? String(contentsOfFile: errors, encoding: .utf8)) ?? "")"
    )
    try configure(baseURL: baseURL)

    let first = try await ReckonBinary.run(["send", "--once", "--config", configuration])
    try await Task.sleep(nanoseconds: 1_000_000_000)
    let second = try await ReckonBinary.run([
      "send", "--once", "--format", "json", "--config", configuration,
    ])
    standIn.terminate()
    standIn.waitUntilExit()

    #expect(first.standardOutput.hasPrefix("sent 0, retrying later 1"), "\(first.transcript)")
    #expect(
      second.standardOutput == #"{"expired":0,"failed":0,"retrying":0,"sent":1}"# + "\n",
      "\(second.transcript)")
    let statuses = try String(contentsOfFile: record, encoding: .utf8).split(separator: "\n")
      .compactMap { line -> Int? in
        let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
        return object?["status"] as? Int
      }
    #expect(statuses == [500, 202], "\(statuses)")
  }

  @Test(arguments: [
    (["--answer", "503"], "--answer takes 429, 500, 401 or 404, not '503'"),
    (["--times", "2"], "--times counts --answer's answers"),
    (["--answer", "429", "--times", "0"], "--times takes a whole number above 0, not '0'"),
  ])
  func aFaultTheStandInCannotPlayIsRefused(arguments: [String], message: String) async throws {
    let folder = try StandInRecordTests.workspace()
    let run = try await ReckonBinary.run(
      ["standin", "--config", folder + "/reckon.json", "--create-key"] + arguments)
    #expect(run.status != 0)
    #expect(run.standardError.contains(message), "\(run.transcript)")
    #expect(!run.standardOutput.contains("listening"))
  }
}
