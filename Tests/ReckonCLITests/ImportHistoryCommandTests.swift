import Foundation
import ReckonEngine
import ReckonSQLite
import ReckonTestSupport
import Testing

@testable import ReckonStateSQLite

/// `reckon import-history` may run beside a service on the same state database, so the
/// checkpoint it ends with never waits for another process's reader: emptying the log would
/// hold the write lock until that reader let go, and the service's writes would time out. Like
/// every other command it reads `reckon.json` in the working directory unless told otherwise.
struct ImportHistoryCommandTests {
  /// A workspace whose reckon.json imports from a `reckon stand-in` process, started, with the
  /// state `state` (the JSON of reckon.json's `state`); stop the process when done.
  static func workspace(state: String) async throws -> (folder: String, standIn: ChildProcess) {
    let folder = try StandInRecordTests.workspace()
    let (standIn, output, _) = try await StandInRecordTests.start(
      folder, record: folder + "/requests.jsonl")
    let listening = try String(contentsOfFile: output, encoding: .utf8).split(separator: "\n")
      .first { $0.hasPrefix("listening on ") }
    guard let baseURL = listening?.dropFirst("listening on ".count) else {
      StandInRecordTests.stop(standIn)
      throw StandInDidNotListen()
    }
    let configuration = """
      {
        "apps": [{ "bundleId": "com.example.coins", "appAppleId": 1234567890, "environment": "Production", "policy": "\(ReckonBinary.packageRoot.path)/policies/targeted.policy" }],
        "state": \(state),
        "appStore": { "issuerId": "00000000-0000-0000-0000-000000000000", "keyId": "TEST123", "privateKeyPath": "\(folder)/key.p8", "baseURL": "\(baseURL)" }
      }
      """
    try Data(configuration.utf8).write(to: URL(fileURLWithPath: folder + "/reckon.json"))
    return (folder, standIn)
  }

  /// The stand-in printed no `listening on` line.
  struct StandInDidNotListen: Error {}

  @Test func itEndsAtOnceBesideAnotherProcesssReader() async throws {
    let (folder, standIn) = try await Self.workspace(state: #"{ "path": "reckon-state.sqlite" }"#)
    defer { StandInRecordTests.stop(standIn) }
    // A reader in another connection holds a snapshot while a later commit sits in the log.
    let statePath = folder + "/reckon-state.sqlite"
    let store = try SQLiteStateStore(path: statePath, rules: .appStore)
    _ = try QueueFixture.enqueue(in: store, at: Date(), transaction: "3001", hold: true)
    let reader = try SQLiteDatabase(path: statePath, options: [.readOnly])
    try reader.execute("BEGIN")
    _ = try reader.query("SELECT count(*) FROM requests")
    _ = try QueueFixture.enqueue(in: store, at: Date(), transaction: "3002", hold: true)

    let yesterday = ISO8601DateFormatter.string(
      from: Date().addingTimeInterval(-86_400), timeZone: TimeZone(identifier: "UTC")!,
      formatOptions: .withFullDate)
    let started = Date()
    // Without --config, as every other command: reckon.json in the working directory.
    let run = try await ReckonBinary.run(
      ["import-history", "--since", yesterday], in: URL(fileURLWithPath: folder))
    let took = Date().timeIntervalSince(started)
    try reader.execute("COMMIT")

    #expect(run.status == 0, "\(run.transcript)")
    #expect(run.standardOutput.contains("0 notifications in"), "\(run.transcript)")
    // The state database's busy timeout is 5 s: a checkpoint waiting for the reader takes it.
    #expect(took < 4, "import-history waited \(took) s for the other process's reader")
  }

  /// A --since after now would import nothing: refused as a usage mistake before any request.
  @Test func aStartInTheFutureIsRefused() async throws {
    let (folder, standIn) = try await Self.workspace(state: #"{ "path": "reckon-state.sqlite" }"#)
    defer { StandInRecordTests.stop(standIn) }
    let tomorrow = ISO8601DateFormatter.string(
      from: Date().addingTimeInterval(2 * 86_400), timeZone: TimeZone(identifier: "UTC")!,
      formatOptions: .withFullDate)
    let run = try await ReckonBinary.run(
      ["import-history", "--since", tomorrow], in: URL(fileURLWithPath: folder))
    #expect(run.status == 2, "\(run.transcript)")
    #expect(run.standardError.contains("is in the future"), "\(run.transcript)")
    #expect(!FileManager.default.fileExists(atPath: folder + "/reckon-state.sqlite"))
  }

  /// A key Apple refuses stops the import naming the app, and what to run to find out why.
  @Test func aRefusedKeyNamesTheAppAndHowToCheckIt() async throws {
    let (folder, standIn) = try await Self.workspace(state: #"{ "path": "reckon-state.sqlite" }"#)
    defer { StandInRecordTests.stop(standIn) }
    let path = folder + "/reckon.json"
    let configuration = try String(contentsOfFile: path, encoding: .utf8)
      .replacingOccurrences(of: #""keyId": "TEST123""#, with: #""keyId": "OTHER99""#)
    try Data(configuration.utf8).write(to: URL(fileURLWithPath: path))
    let yesterday = ISO8601DateFormatter.string(
      from: Date().addingTimeInterval(-86_400), timeZone: TimeZone(identifier: "UTC")!,
      formatOptions: .withFullDate)
    let run = try await ReckonBinary.run(
      ["import-history", "--since", yesterday], in: URL(fileURLWithPath: folder))
    #expect(run.status == 1, "\(run.transcript)")
    #expect(
      run.standardError.contains(
        "reckon import-history: com.example.coins (Production): Get Notification History answered 401"
      ), "\(run.transcript)")
    #expect(
      run.standardError.contains("check the key, issuer id and bundle id with reckon keys check"),
      "\(run.transcript)")
  }
}
