import Foundation
import ReckonAppStore
import ReckonTestSupport
import Testing

/// The built `reckon serve` once, end to end: a notification signed and posted by `reckon
/// simulate`, the reply at the stand-in, then SIGTERM and a clean exit.
@Suite(.serialized) struct ServeProcessTests {
  @Test func reckonServeAnswersSendsAndStopsCleanlyOnSIGTERM() async throws {
    let binary = try CrashRecoveryTests.reckonBinary()
    let (standIn, standInURL) = try TestKey.standIn()
    let authority = try LocalCertificateAuthority()
    let folder = try ServeChild.workspace(standInURL, authority, name: "serve")
    let log = folder.appendingPathComponent("serve.log")
    _ = FileManager.default.createFile(atPath: log.path, contents: nil)
    let process = ChildProcess()
    process.executableURL = binary
    process.arguments = ["serve", "--config", folder.appendingPathComponent("reckon.json").path]
    process.standardOutput = FileHandle.nullDevice
    process.standardError = try FileHandle(forWritingTo: log)
    try process.run()

    var listening: String?
    _ = await ServerFixture.eventually(within: 20) {
      let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
      listening = text.split(separator: "\n").first { $0.contains(#""event":"listening""#) }
        .map(String.init)
      return listening != nil
    }
    let line = try #require(listening, "reckon serve did not start")
    let url = try #require(
      (try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: String])?["url"])
    // The CA the server trusts, and one it does not, made by `reckon simulate --init-ca`.
    let untrusted = folder.appendingPathComponent("untrusted").path
    let made = try await Self.run(binary, ["simulate", "--init-ca", untrusted])
    let app = ["--bundle-id", TestKey.bundleId, "--environment", "Sandbox"]
    let posted = try await Self.run(
      binary,
      [
        "simulate", "--ca", folder.appendingPathComponent("ca").path, "--url",
        url + "/apple/notifications",
      ]
        + app)
    let refused = try await Self.run(
      binary,
      [
        "simulate", "--ca", untrusted, "--url", url + "/apple/notifications", "--transaction-id",
        "7",
      ]
        + app)
    let sent = await ServerFixture.eventually { standIn.requests.count == 1 }

    kill(process.processIdentifier, SIGTERM)
    await CrashRecoveryTests.waitForExit(process)
    await ServerFixture.offPool { standIn.shutdown() }
    let logged = try String(contentsOf: log, encoding: .utf8)
    #expect(made.status == 0)
    #expect(posted.status == 0)
    #expect(posted.output.contains("CONSUMPTION_REQUEST"))
    #expect(posted.output.contains("for transaction 2000000812345678: HTTP 200"))
    #expect(refused.status == 1)
    #expect(refused.output.contains("for transaction 7: HTTP 403"))
    #expect(sent)
    #expect(standIn.requests.first?.status == 202)
    #expect(process.terminationStatus == 0)
    #expect(logged.contains(#""event":"stopped""#))
    #expect(!logged.contains("PRIVATE KEY"))
    // A clean stop leaves everything in the state file itself: its log is empty or gone.
    let wal = folder.appendingPathComponent("state.sqlite-wal").path
    let walBytes = (try? FileManager.default.attributesOfItem(atPath: wal)[.size] as? Int) ?? 0
    #expect(walBytes == 0, "state.sqlite-wal holds \(walBytes) bytes after the stop")
  }

  /// A log reader that goes away (a shipper restarting behind a pipe) does not stop the
  /// service: its lines are dropped, the webhook answers on, and SIGTERM still stops it with 0.
  @Test func aLogReaderThatGoesAwayDoesNotStopTheService() async throws {
    let binary = try CrashRecoveryTests.reckonBinary()
    let (standIn, standInURL) = try TestKey.standIn()
    let authority = try LocalCertificateAuthority()
    let folder = try ServeChild.workspace(standInURL, authority, name: "serve-pipe")
    let pipe = Pipe()
    let process = ChildProcess()
    process.executableURL = binary
    process.arguments = ["serve", "--config", folder.appendingPathComponent("reckon.json").path]
    process.standardOutput = FileHandle.nullDevice
    process.standardError = pipe
    try process.run()
    // Read off the pool: a read of the pipe blocks until the child writes.
    let lines = LockedText()
    await ServerFixture.offPool {
      let deadline = Date().addingTimeInterval(20)
      while Date() < deadline, !lines.text.contains(#""event":"listening""#) {
        let chunk = pipe.fileHandleForReading.availableData
        if chunk.isEmpty { break }
        lines.append(String(decoding: chunk, as: UTF8.self))
      }
    }
    let listening = try #require(
      lines.text.split(separator: "\n").first { $0.contains(#""event":"listening""#) },
      "reckon serve did not start: \(lines.text)")
    let url = try #require(
      (try JSONSerialization.jsonObject(with: Data(listening.utf8)) as? [String: String])?["url"])
    let port = try #require(URL(string: url)?.port)
    try pipe.fileHandleForReading.close()
    var statuses: [Int?] = []
    for transaction in ["2000000812345678", "2000000812345679"] {
      var notification = SimulatedNotification()
      notification.bundleId = TestKey.bundleId
      notification.environment = "Sandbox"
      notification.appAppleId = nil
      notification.transactionId = transaction
      statuses.append(await ServeChild.post(try notification.body(signedBy: authority), port: port))
    }
    let running = process.isRunning
    if running { kill(process.processIdentifier, SIGTERM) }
    await CrashRecoveryTests.waitForExit(process)
    await ServerFixture.offPool { standIn.shutdown() }
    #expect(statuses == [200, 200])
    #expect(running, "reckon serve stopped once its log reader went away")
    #expect(process.terminationReason == .exit)
    #expect(process.terminationStatus == 0)
  }

  /// SIGHUP re-reads the policies and leaves the service running (it is caught, never the
  /// default action that would end the process); SIGTERM then stops it cleanly.
  @Test func aHangUpReloadsThePoliciesAndTheServiceRunsOn() async throws {
    let (standIn, standInURL) = try TestKey.standIn()
    defer { standIn.shutdown() }
    let folder = try ServeChild.workspace(
      standInURL, try LocalCertificateAuthority(), name: "hangup")
    let child = try ServeChild.launch(try CrashRecoveryTests.reckonBinary(), folder: folder)
    defer { if child.process.isRunning { kill(child.pid, SIGKILL) } }
    func logged() -> String { (try? String(contentsOf: child.log, encoding: .utf8)) ?? "" }
    let port = await child.port(within: 20)
    #expect(port != nil, "\(logged())")
    // The start-up line says which database and whether this process sends.
    let listening = logged().split(separator: "\n").first { $0.contains(#""event":"listening""#) }
    #expect(listening?.contains(#""sender":"on""#) == true, "\(logged())")
    #expect(
      listening?.contains(#""state":""#) == true && listening?.contains("state.sqlite") == true)

    kill(child.pid, SIGHUP)
    let reloaded = await ServerFixture.eventually(within: 20) {
      logged().contains("SIGHUP: re-reading the policies")
    }
    #expect(reloaded, "\(logged())")
    #expect(child.process.isRunning)

    await child.terminate()
    #expect(child.process.terminationStatus == 0, "\(logged())")
    #expect(logged().contains(#""event":"stopped""#))
  }

  /// A policy file broken while the service was down does not keep it down: the restart
  /// decides with the version that last went live, kept in the state, logs why at error level,
  /// and `/healthz` says degraded until the file is fixed.
  @Test func aRestartWithAPolicyThatDoesNotCheckDecidesWithTheLastLiveVersion() async throws {
    let (standIn, standInURL) = try TestKey.standIn()
    defer { standIn.shutdown() }
    let authority = try LocalCertificateAuthority()
    let folder = try ServeChild.workspace(standInURL, authority, name: "fallback")
    let binary = try CrashRecoveryTests.reckonBinary()
    let first = try ServeChild.launch(binary, folder: folder, logName: "first.log")
    defer { if first.process.isRunning { kill(first.pid, SIGKILL) } }
    #expect(await first.port(within: 20) != nil, "\(first.logText)")
    await first.terminate()

    try "policy \"faults\"\nrule \"x\" when nonsense.fact then refund MAYBE\n".write(
      to: folder.appendingPathComponent("p.policy"), atomically: true, encoding: .utf8)
    let second = try ServeChild.launch(binary, folder: folder, logName: "second.log")
    defer { if second.process.isRunning { kill(second.pid, SIGKILL) } }
    let port = try #require(await second.port(within: 20), "\(second.logText)")
    let health = try await RawClient.exchange(
      port: port, "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n",
      wait: 10)
    let posted = await ServeChild.post(
      try ServerFixture.notification(transaction: "6000000001").body(signedBy: authority),
      port: port)
    let sent = await ServerFixture.eventually(within: 20) { standIn.requests.count == 1 }
    await second.terminate()
    let logged = second.logText
    #expect(second.process.terminationStatus == 0, "\(logged)")
    #expect(health.hasPrefix("HTTP/1.1 200"), "\(health)")
    #expect(health.contains(#""status":"degraded""#), "\(health)")
    #expect(health.contains(#""policies":"refused""#))
    // Decided by the kept version, which declines.
    #expect(posted == 200)
    #expect(sent)
    #expect(
      standIn.requests.first.map { String(decoding: $0.body, as: UTF8.self) }?
        .contains(#""refundPreference":"DECLINE""#) == true)
    let fallback = logged.split(separator: "\n").first {
      $0.contains(#""event":"policy_fallback""#)
    }
    #expect(fallback?.contains(#""level":"error""#) == true, "\(logged)")
    #expect(fallback?.contains("nonsense.fact") == true)
  }

  /// A SIGHUP while serve is still starting (after it began reading its configuration: the
  /// state database appearing shows that) finds the policies about to be read anyway; it used to
  /// kill the process, as the reload handler was put in place only once the server listened.
  @Test func aHangUpWhileStartingDoesNotStopTheService() async throws {
    let (standIn, standInURL) = try TestKey.standIn()
    defer { standIn.shutdown() }
    let folder = try ServeChild.workspace(
      standInURL, try LocalCertificateAuthority(), name: "early-hangup")
    let state = folder.appendingPathComponent("state.sqlite").path
    let child = try ServeChild.launch(try CrashRecoveryTests.reckonBinary(), folder: folder)
    defer { if child.process.isRunning { kill(child.pid, SIGKILL) } }
    func logged() -> String { (try? String(contentsOf: child.log, encoding: .utf8)) ?? "" }
    let deadline = Date().addingTimeInterval(20)
    while !FileManager.default.fileExists(atPath: state), Date() < deadline {
      usleep(1_000)
    }
    kill(child.pid, SIGHUP)
    let port = await child.port(within: 20)
    #expect(port != nil, "serve did not come up after an early SIGHUP: \(logged())")
    #expect(child.process.isRunning)
    await child.terminate()
    #expect(child.process.terminationStatus == 0, "\(logged())")
  }

  /// Runs the built `reckon` with `arguments`; its exit status and standard output.
  static func run(_ binary: URL, _ arguments: [String]) async throws -> (
    status: Int32, output: String
  ) {
    let process = ChildProcess()
    process.executableURL = binary
    process.arguments = arguments
    let output = TestScratch.folder.appendingPathComponent("simulate-\(UUID()).out")
    _ = FileManager.default.createFile(atPath: output.path, contents: nil)
    process.standardOutput = try FileHandle(forWritingTo: output)
    process.standardError = FileHandle.nullDevice
    try process.run()
    await CrashRecoveryTests.waitForExit(process)
    return (process.terminationStatus, try String(contentsOf: output, encoding: .utf8))
  }
}

/// Text appended from one thread and read from another.
final class LockedText: @unchecked Sendable {
  private let lock = NSLock()
  private var stored = ""

  var text: String { lock.withLock { stored } }

  func append(_ more: String) { lock.withLock { stored += more } }
}
