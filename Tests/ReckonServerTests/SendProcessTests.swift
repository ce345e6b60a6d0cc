import Foundation
import ReckonEngine
import Testing

/// The built `reckon send` (without --once) stops cleanly on SIGTERM: the sends in flight finish
/// and are recorded, nothing is left mid-send, and it exits 0.
@Suite(.serialized) struct SendProcessTests {
  @Test(arguments: [SIGTERM, SIGINT])
  func theLongRunningSenderStopsCleanlyOnASignal(_ number: Int32) async throws {
    let binary = try CrashRecoveryTests.reckonBinary()
    let (standIn, url) = try TestKey.standIn()
    defer { standIn.shutdown() }
    let folder = try CrashRecoveryTests.workspace(baseURL: url)
    let store = try StateStore(path: folder.appendingPathComponent("state.sqlite").path)
    for index in 0..<40 {
      try OutboxFixture.enqueue(in: store, at: Date(), transaction: "8\(index)")
    }
    let log = folder.appendingPathComponent("send.log")
    _ = FileManager.default.createFile(atPath: log.path, contents: nil)
    let process = Process()
    process.executableURL = binary
    process.arguments = ["send", "--config", folder.appendingPathComponent("reckon.json").path]
    process.standardOutput = FileHandle.nullDevice
    process.standardError = try FileHandle(forWritingTo: log)
    try process.run()
    defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }

    let started = await ServerFixture.eventually(within: 20) { standIn.requests.count >= 3 }
    kill(process.processIdentifier, number)
    await CrashRecoveryTests.waitForExit(process)

    let logged = try String(contentsOf: log, encoding: .utf8)
    let entries = try store.entries(limit: 100)
    #expect(started)
    #expect(process.terminationReason == .exit)
    #expect(process.terminationStatus == 0)
    #expect(logged.contains("stopping after the sends in flight"))
    #expect(logged.contains(#""message":"stopped""#))
    #expect(entries.allSatisfy { $0.state.name != "sending" })
    #expect(entries.filter { $0.state.name == "sent" }.count == standIn.requests.count)
  }
}
