import Foundation
import ReckonEngine
import ReckonState
import ReckonTestSupport
import Testing

@testable import ReckonStateSQLite

/// `reckon send --once` while an app's sending is paused for a credentials problem says so and
/// exits 1, in every run until the pause ends: a cron job must not stay quiet while every reply
/// of the app waits.
struct SendPauseTests {
  @Test func aPausedAppIsToldAndTheRunFails() async throws {
    let folder = TestScratch.folder.appendingPathComponent("send-pause-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    let store = try SQLiteStateStore(path: folder + "/reckon-state.sqlite", rules: .appStore)
    let id = try QueueFixture.enqueue(in: store, at: Date(), transaction: "3101", hold: false)
    let app = try store.entry(id: id).app
    try store.pause(app, until: Date().addingTimeInterval(600), reason: "HTTP 401")
    let key = folder + "/key.p8"
    try FileManager.default.copyItem(atPath: TestKey.path, toPath: key)
    try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: key)
    let policy = ReckonBinary.packageRoot.path + "/policies/targeted.policy"
    let json = """
      {"apps": [{"bundleId": "\(app.bundleId)", "appAppleId": 1234567890, "environment": "\(app.environment)", "policy": "\(policy)"}],
       "state": {"path": "reckon-state.sqlite"},
       "appStore": {"issuerId": "\(TestKey.issuerId)", "keyId": "\(TestKey.keyId)",
                    "privateKeyPath": "\(key)", "baseURL": "http://127.0.0.1:1"}}
      """
    try Data(json.utf8).write(to: URL(fileURLWithPath: folder + "/reckon.json"))
    let run = try await ReckonBinary.run(["send", "--once", "--config", folder + "/reckon.json"])
    #expect(run.status == 1, "\(run.transcript)")
    #expect(run.standardOutput.hasPrefix("sent 0,"), "\(run.transcript)")
    #expect(
      run.standardError.contains(
        "sending is paused for \(app.bundleId) (\(app.environment)) until "),
      "\(run.transcript)")
    #expect(
      run.standardError.contains(
        "HTTP 401; check the key, issuer id and bundle id (reckon keys check)"))
    #expect(try store.entry(id: id).state.name == "pending")
  }
}
