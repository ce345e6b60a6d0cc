import Foundation
import ReckonAppStore
import ReckonEngine
import ReckonStandIn
import ReckonTestSupport
import Testing

@testable import ReckonStateSQLite

/// Runs the real `reckon send --once`, kills it with SIGKILL at random points while it sends,
/// restarts it, and checks that no entry is lost and duplicates are the same body, once per crash.
/// `RECKON_CRASH_ROUNDS` sets the number of kills (default 12).
@Suite(.serialized) struct CrashRecoveryTests {
  static let rounds = Int(ProcessInfo.processInfo.environment["RECKON_CRASH_ROUNDS"] ?? "") ?? 12

  /// The built `reckon` executable beside the test bundle (e.g. `.build/debug/reckon`).
  static func reckonBinary() throws -> URL {
    let runner = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
      .deletingLastPathComponent()
    let bundle = Bundle.main.bundleURL
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent()
    let candidates = [
      runner, runner.deletingLastPathComponent(), bundle, bundle.deletingLastPathComponent(),
      root.appendingPathComponent(".build/debug"),
    ].map { $0.appendingPathComponent("reckon") }
    guard
      let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0.path) })
    else {
      throw Missing(description: "no reckon binary in \(candidates.map(\.path))")
    }
    return found
  }

  struct Missing: Error, CustomStringConvertible { let description: String }

  @Test func killedSendersLoseNothingAndResendOnlyTheSameBody() async throws {
    let binary = try Self.reckonBinary()
    let (standIn, url) = try TestKey.standIn()
    defer { standIn.shutdown() }
    let folder = try Self.workspace(baseURL: url)
    let store = try SQLiteStateStore(
      path: folder.appendingPathComponent("state.sqlite").path, rules: .appStore)
    let now = Date()
    var bodies: [String: Data] = [:]
    for index in 0..<120 {
      let transaction = "7\(index)"
      let body = Data(
        #"{"customerConsented":true,"deliveryStatus":"DELIVERED","sampleContentProvided":true,"consumptionPercentage":\#(index * 100)}"#
          .utf8)
      bodies[transaction] = body
      // The first entry is already past its deadline.
      let received = index == 0 ? now.addingTimeInterval(-13 * 3_600) : now
      try OutboxFixture.enqueue(in: store, at: received, transaction: transaction, body: body)
    }
    standIn.respond { request in
      guard let id = request.transactionId else { return nil }
      if id.hasSuffix("3") { return .badRequest(errorCode: 4_000_185, message: "Family sharing.") }
      if id.hasSuffix("5") && Bool.random() { return .serverError }
      return nil
    }
    for _ in 0..<Self.rounds {
      let process = try Self.launch(binary, folder)
      try await Task.sleep(nanoseconds: UInt64.random(in: 150_000_000...700_000_000))
      if process.isRunning { kill(process.processIdentifier, SIGKILL) }
      await Self.waitForExit(process)
    }
    for _ in 0..<20 where try !store.entries(states: ["pending", "held", "sending"]).isEmpty {
      let process = try Self.launch(binary, folder)
      await Self.waitForExit(process)
      try await Task.sleep(nanoseconds: 300_000_000)
    }
    let entries = try store.entries(limit: 1_000)
    #expect(entries.count == 120)
    var duplicates = 0
    for entry in entries {
      #expect(
        ["sent", "failed", "expired"].contains(entry.state.name),
        "entry \(entry.id) ended \(entry.state.name)")
      let received = standIn.requests.filter { $0.transactionId == entry.transactionId }
      #expect(received.allSatisfy { $0.body == bodies[entry.transactionId] && $0.problem == nil })
      let accepted = received.filter { $0.status == 202 }.count
      // A body is sent again only when a send was interrupted by a kill, or when its answer never
      // reached the sender (a time-out on a loaded machine, recorded as an attempt with no status).
      let unanswered = try store.attempts(entryId: entry.id).filter { $0.httpStatus == nil }.count
      #expect(
        accepted <= 1 + entry.interruptedSends + unanswered,
        "transaction \(entry.transactionId) accepted \(accepted) times")
      if entry.state.name == "sent" { #expect(accepted >= 1) }
      duplicates += max(0, accepted - 1)
    }
    #expect(
      try store.entry(id: entries.first { $0.transactionId == "70" }!.id).state.name == "expired")
    print(
      "crash test: \(Self.rounds) kills, \(standIn.requests.count) requests, \(duplicates) duplicate deliveries"
    )
  }

  static func launch(_ binary: URL, _ folder: URL) throws -> ChildProcess {
    let process = ChildProcess()
    process.executableURL = binary
    process.arguments = [
      "send", "--once", "--config", folder.appendingPathComponent("reckon.json").path,
    ]
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    return process
  }

  static func workspace(baseURL: URL) throws -> URL {
    let folder = TestScratch.folder.appendingPathComponent(
      "reckon-crash-\(UUID())")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let key = folder.appendingPathComponent("key.p8")
    try Data(contentsOf: URL(fileURLWithPath: TestKey.path)).write(to: key)
    try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: key.path)
    let config = """
      {"apps": [{"bundleId": "\(TestKey.bundleId)", "appAppleId": 1234567890, "environment": "Production",
                 "policy": "p.policy"}],
       "state": {"path": "state.sqlite"},
       "appStore": {"issuerId": "\(TestKey.issuerId)", "keyId": "\(TestKey.keyId)", "privateKeyPath": "key.p8",
                    "baseURL": "\(baseURL.absoluteString)"},
       "sender": {"productionRequestsPerSecond": 100, "initialBackoffSeconds": 0.2, "maximumBackoffSeconds": 1}}
      """
    try Data(config.utf8).write(to: folder.appendingPathComponent("reckon.json"))
    return folder
  }

  /// Waits for the child on a GCD thread: blocking a cooperative thread here would starve the
  /// stand-in in this process, which the child is waiting on.
  static func waitForExit(_ process: ChildProcess) async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      DispatchQueue.global().async {
        process.waitUntilExit()
        continuation.resume()
      }
    }
  }
}
