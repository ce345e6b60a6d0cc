import Foundation
import ReckonAppStore
import ReckonEngine
import ReckonTestSupport
import Testing

@testable import ReckonStateSQLite

/// The built `reckon send` (without --once) stops cleanly on SIGTERM: the sends in flight finish
/// and are recorded, nothing is left mid-send, and it exits 0.
@Suite(.serialized) struct SendProcessTests {
  @Test(arguments: [SIGTERM, SIGINT])
  func theLongRunningSenderStopsCleanlyOnASignal(_ number: Int32) async throws {
    let binary = try CrashRecoveryTests.reckonBinary()
    let (standIn, url) = try TestKey.standIn()
    defer { standIn.shutdown() }
    let folder = try CrashRecoveryTests.workspace(baseURL: url)
    let store = try SQLiteStateStore(
      path: folder.appendingPathComponent("state.sqlite").path, rules: .appStore)
    for index in 0..<40 {
      try OutboxFixture.enqueue(in: store, at: Date(), transaction: "8\(index)")
    }
    let (process, log) = try SendProcessTests.launchSend(binary, folder: folder)
    defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }

    let started = await ServerFixture.eventually(within: 20) { standIn.requests.count >= 3 }
    kill(process.processIdentifier, number)
    await CrashRecoveryTests.waitForExit(process)

    let logged = try String(contentsOf: log, encoding: .utf8)
    // The stopped sender left every send it recorded in the state file itself.
    let wal = folder.appendingPathComponent("state.sqlite-wal").path
    let walBytes = (try? FileManager.default.attributesOfItem(atPath: wal)[.size] as? Int) ?? 0
    #expect(walBytes == 0, "state.sqlite-wal holds \(walBytes) bytes after the stop")
    let entries = try store.entries(limit: 100)
    #expect(started)
    #expect(process.terminationReason == .exit)
    #expect(process.terminationStatus == 0)
    #expect(logged.contains("stopping after the sends in flight"))
    #expect(logged.contains(#""message":"stopped""#))
    let events = logged.split(separator: "\n").compactMap(Self.event)
    #expect(events.contains("stopping") && events.contains("stopped"), "\(logged)")
    #expect(entries.allSatisfy { $0.state.name != "sending" })
    #expect(entries.filter { $0.state.name == "sent" }.count == standIn.requests.count)
  }

  /// SIGHUP, the usual "reload", neither kills the running sender nor stops it; a pause an
  /// earlier sender left in force is said at start-up, so a restart after fixing the key does not
  /// seem to do nothing.
  @Test func aHangUpLeavesTheSenderRunningAndACarriedOverPauseIsSaid() async throws {
    let binary = try CrashRecoveryTests.reckonBinary()
    let (standIn, url) = try TestKey.standIn()
    defer { standIn.shutdown() }
    let folder = try CrashRecoveryTests.workspace(baseURL: url)
    let store = try SQLiteStateStore(
      path: folder.appendingPathComponent("state.sqlite").path, rules: .appStore)
    try store.pause(
      AppStoreApp(bundleId: "com.example.paused", environment: .production).key,
      until: Date().addingTimeInterval(600), reason: "HTTP 401")
    let (process, log) = try SendProcessTests.launchSend(binary, folder: folder)
    defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
    let logged = { (try? String(contentsOf: log, encoding: .utf8)) ?? "" }

    let started = await ServerFixture.eventually(within: 30) {
      logged().contains(#""event":"started""#)
    }
    kill(process.processIdentifier, SIGHUP)
    let reloadSaid = await ServerFixture.eventually(within: 10) {
      logged().contains("SIGHUP: reckon send has nothing to re-read")
    }
    let aliveAfterHangUp = process.isRunning
    kill(process.processIdentifier, SIGTERM)
    let exited = await ServerFixture.eventually(within: 30) { !process.isRunning }

    #expect(started, "\(logged())")
    #expect(reloadSaid, "\(logged())")
    #expect(aliveAfterHangUp)
    #expect(exited)
    if exited {
      #expect(process.terminationReason == .exit)
      #expect(process.terminationStatus == 0)
    }
    let pauseLine = logged().split(separator: "\n").first { $0.contains("com.example.paused") }
    #expect(pauseLine?.contains(#""level":"warning""#) == true, "\(logged())")
    #expect(pauseLine?.contains("is paused until") == true)
  }

  @Test func everyLineSendLogsCarriesAnEventNameAsServesLinesDo() async throws {
    let binary = try CrashRecoveryTests.reckonBinary()
    let (standIn, url) = try TestKey.standIn()
    defer { standIn.shutdown() }
    let folder = try CrashRecoveryTests.workspace(baseURL: url)
    let store = try SQLiteStateStore(
      path: folder.appendingPathComponent("state.sqlite").path, rules: .appStore)
    for index in 0..<3 {
      try OutboxFixture.enqueue(in: store, at: Date(), transaction: "9\(index)")
    }
    let (status, logged) = try await Self.sendOnce(
      binary, config: folder.appendingPathComponent("reckon.json"))

    #expect(status == 0, "\(logged)")
    let lines = logged.split(separator: "\n")
    #expect(lines.count >= 3, "\(logged)")
    for line in lines {
      #expect(Self.event(line) == "sender", "\(line)")
    }
  }

  @Test func aConfigurationThatCannotSendLeavesNoLockFileBehind() async throws {
    let binary = try CrashRecoveryTests.reckonBinary()
    let folder = try CrashRecoveryTests.workspace(baseURL: URL(string: "http://127.0.0.1:1")!)
    let config = folder.appendingPathComponent("reckon.json")
    var object = try #require(
      try JSONSerialization.jsonObject(with: Data(contentsOf: config)) as? [String: Any])
    object["appStore"] = nil
    try JSONSerialization.data(withJSONObject: object).write(to: config)
    let (status, logged) = try await Self.sendOnce(binary, config: config)
    #expect(status != 0)
    #expect(logged.contains("appStore: is required"), "\(logged)")
    let files = try FileManager.default.contentsOfDirectory(atPath: folder.path)
    #expect(!files.contains { $0.hasSuffix(".send.lock") }, "\(files)")
  }

  /// The CLI and the library take the same lock: while a `SenderLock` (as `ReckonService.runSender`
  /// holds) is taken in this process, `reckon send` refuses to start and sends nothing; once it is
  /// released, the same command sends.
  @Test func reckonSendRefusesToStartWhileALibrarySenderHoldsTheLock() async throws {
    let binary = try CrashRecoveryTests.reckonBinary()
    let (standIn, url) = try TestKey.standIn()
    defer { standIn.shutdown() }
    let folder = try CrashRecoveryTests.workspace(baseURL: url)
    let statePath = folder.appendingPathComponent("state.sqlite").path
    let store = try SQLiteStateStore(path: statePath, rules: .appStore)
    let entry = try OutboxFixture.enqueue(in: store, at: Date(), transaction: "71")
    let config = folder.appendingPathComponent("reckon.json")

    let lock = try SenderLock(statePath: statePath)
    let (refusedStatus, refused) = try await Self.sendOnce(binary, config: config)
    let triedWhileLocked = try store.attempts(entryId: entry).count
    lock.release()
    let (status, logged) = try await Self.sendOnce(binary, config: config)

    #expect(refusedStatus == 1)
    #expect(
      refused.contains("reckon send: another sender holds \(statePath).send.lock"), "\(refused)")
    #expect(triedWhileLocked == 0)
    #expect(status == 0, "\(logged)")
    #expect(try store.attempts(entryId: entry).count == 1)
  }

  @Test func reckonServeRefusesToStartWhileAnotherSenderHoldsTheLock() async throws {
    let binary = try CrashRecoveryTests.reckonBinary()
    let authority = try LocalCertificateAuthority()
    let folder = try ServeChild.workspace(
      URL(string: "http://127.0.0.1:1")!, authority, name: "serve-lock")
    let lock = try SenderLock(statePath: folder.appendingPathComponent("state.sqlite").path)
    let child = try ServeChild.launch(binary, folder: folder)
    let exited = await ServerFixture.eventually(within: 20) { !child.process.isRunning }
    await child.kill()
    lock.release()
    #expect(exited, "\(child.logText)")
    #expect(child.process.terminationStatus == 1)
    #expect(child.logText.contains("reckon serve: another sender holds"), "\(child.logText)")
  }

  /// Runs `reckon send --once` with `config` to its end: its exit status and standard error.
  /// A proxy in the environment never sees a plain-http send: the bearer token would cross it
  /// in clear. Here the proxy is a port nothing listens on, so a send through it would fail.
  @Test func aProxyInTheEnvironmentIsNotUsedForAPlainHTTPStandIn() async throws {
    let binary = try CrashRecoveryTests.reckonBinary()
    let (standIn, url) = try TestKey.standIn()
    defer { standIn.shutdown() }
    let folder = try CrashRecoveryTests.workspace(baseURL: url)
    let store = try SQLiteStateStore(
      path: folder.appendingPathComponent("state.sqlite").path, rules: .appStore)
    let entry = try OutboxFixture.enqueue(in: store, at: Date(), transaction: "77")
    var environment = ProcessInfo.processInfo.environment
    for name in ["http_proxy", "HTTP_PROXY", "ALL_PROXY", "all_proxy"] {
      environment[name] = "http://127.0.0.1:1"
    }
    environment["no_proxy"] = nil
    environment["NO_PROXY"] = nil
    let (status, logged) = try await Self.sendOnce(
      binary, config: folder.appendingPathComponent("reckon.json"), environment: environment)
    #expect(status == 0, "\(logged)")
    #expect(try store.entry(id: entry).state.name == "sent", "\(logged)")
    #expect(standIn.requests.count == 1)
  }

  /// Starts the built `reckon send` (continuous) on `folder`'s configuration, its standard
  /// error going to `folder/send.log`.
  static func launchSend(_ binary: URL, folder: URL) throws -> (ChildProcess, URL) {
    let log = folder.appendingPathComponent("send.log")
    _ = FileManager.default.createFile(atPath: log.path, contents: nil)
    let process = ChildProcess()
    process.executableURL = binary
    process.arguments = ["send", "--config", folder.appendingPathComponent("reckon.json").path]
    process.standardOutput = FileHandle.nullDevice
    process.standardError = try FileHandle(forWritingTo: log)
    try process.run()
    return (process, log)
  }

  static func sendOnce(_ binary: URL, config: URL, environment: [String: String]? = nil)
    async throws -> (Int32, String)
  {
    let error = Pipe()
    let process = ChildProcess()
    process.executableURL = binary
    if let environment { process.environment = environment }
    process.arguments = ["send", "--once", "--config", config.path]
    process.standardOutput = FileHandle.nullDevice
    process.standardError = error
    try process.run()
    return await ProcessOutput.readToEnd(process, error)
  }

  /// The `event` field of a JSON log line that also has `time`, `level` and `message`.
  static func event(_ line: Substring) -> String? {
    guard
      let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
      object["time"] is String, object["level"] is String, object["message"] is String
    else { return nil }
    return object["event"] as? String
  }
}
