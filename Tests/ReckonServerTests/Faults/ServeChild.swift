import Foundation
import ReckonAppStore
import ReckonTestSupport

#if canImport(Glibc)
  import Glibc
#endif

/// One `reckon serve` child process for the process-level tests (faults, load, serve): launched on a workspace with its standard
/// error in a log file, its webhook port read from the `listening` line, stopped with SIGKILL or
/// SIGTERM. Every wait happens off the cooperative pool or in short async sleeps, never by
/// blocking a cooperative thread (the stand-in the child sends to lives in this process).
final class ServeChild: @unchecked Sendable {
  let process: ChildProcess
  let log: URL

  private init(process: ChildProcess, log: URL) {
    self.process = process
    self.log = log
  }

  var pid: pid_t { process.processIdentifier }

  /// Starts `reckon serve --config folder/reckon.json`, logging to `folder/logName`.
  static func launch(_ binary: URL, folder: URL, logName: String = "serve.log") throws
    -> ServeChild
  {
    let log = folder.appendingPathComponent(logName)
    _ = FileManager.default.createFile(atPath: log.path, contents: nil)
    let process = ChildProcess()
    process.executableURL = binary
    process.arguments = ["serve", "--config", folder.appendingPathComponent("reckon.json").path]
    process.standardOutput = FileHandle.nullDevice
    process.standardError = try FileHandle(forWritingTo: log)
    try process.run()
    return ServeChild(process: process, log: log)
  }

  /// The port from the `listening` line, polled every 2 ms (the kill test's windows are a few
  /// milliseconds wide, so it must notice quickly); nil if the child did not listen in time.
  func port(within seconds: Double) async -> Int? {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline, process.isRunning {
      if let port = Self.listeningPort(in: log) { return port }
      try? await Task.sleep(nanoseconds: 2_000_000)
    }
    return Self.listeningPort(in: log)
  }

  /// SIGKILL, then waits for the exit.
  func kill() async {
    if process.isRunning { Glibc.kill(pid, SIGKILL) }
    await CrashRecoveryTests.waitForExit(process)
  }

  /// SIGTERM (finish in-flight requests, stop the sender), then waits for the exit.
  func terminate() async {
    if process.isRunning { Glibc.kill(pid, SIGTERM) }
    await CrashRecoveryTests.waitForExit(process)
  }

  /// The log so far.
  var logText: String { (try? String(contentsOf: log, encoding: .utf8)) ?? "" }

  private static func listeningPort(in log: URL) -> Int? {
    guard let text = try? String(contentsOf: log, encoding: .utf8),
      let line = text.split(separator: "\n").first(where: {
        $0.contains(#""event":"listening""#)
      }),
      let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: String],
      let url = object["url"].flatMap(URL.init(string:))
    else { return nil }
    return url.port
  }

  /// POSTs `body` to the webhook over a fresh loopback connection (closed after the answer) and
  /// returns the status, or nil when the connection broke first (the child was killed).
  static func post(_ body: Data, port: Int, wait seconds: Int = 10) async -> Int? {
    let head =
      "POST /apple/notifications HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
      + "Content-Length: \(body.count)\r\nConnection: close\r\n\r\n"
    let reply = try? await RawClient.exchange(
      port: port, head + String(decoding: body, as: UTF8.self), wait: seconds)
    guard let reply, reply.hasPrefix("HTTP/1.1 ") else { return nil }
    return Int(reply.dropFirst(9).prefix(3))
  }

  /// A workspace for `reckon serve`: the test key, a local CA in `ca/`, a policy that declines
  /// every request, facts for the default app account token, and a config that listens on a port
  /// the system picks and sends to `standIn` (fast backoff so retries happen within a test).
  /// `factSource`, when given, is the JSON of the one fact source instead of those facts;
  /// `state` and `sender` are the JSON of those sections.
  static func workspace(
    _ standIn: URL, _ authority: LocalCertificateAuthority, name: String,
    factSource: String? = nil, state: String = #"{"path": "state.sqlite"}"#,
    sender: String =
      #"{"sandboxRequestsPerSecond": 200, "initialBackoffSeconds": 0.2, "maximumBackoffSeconds": 1}"#
  ) throws -> URL {
    let folder = TestScratch.folder.appendingPathComponent(
      "reckon-\(name)-\(UUID())")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let key = folder.appendingPathComponent("key.p8")
    try Data(contentsOf: URL(fileURLWithPath: TestKey.path)).write(to: key)
    try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: key.path)
    try authority.write(to: folder.appendingPathComponent("ca").path)
    try "policy \"faults\"\notherwise refund DECLINE\n".write(
      to: folder.appendingPathComponent("p.policy"), atomically: true, encoding: .utf8)
    if factSource == nil {
      let token = SimulatedNotification().appAccountToken ?? ""
      let facts = """
        {"byAppAccountToken": {"\(token)": {"customer.consented": true, "delivery.status": "DELIVERED",
          "product.sample_offered": false, "usage.consumed": "10%"}}}
        """
      try facts.write(
        to: folder.appendingPathComponent("facts.json"), atomically: true, encoding: .utf8)
    }
    let source = factSource ?? #"{"name": "notes", "type": "json", "path": "facts.json"}"#
    let config = """
      {"apps": [{"bundleId": "\(TestKey.bundleId)", "environment": "Sandbox", "policy": "p.policy"}],
       "factSources": [\(source)],
       "state": \(state),
       "appStore": {"issuerId": "\(TestKey.issuerId)", "keyId": "\(TestKey.keyId)", "privateKeyPath": "key.p8",
                    "baseURL": "\(standIn.absoluteString)"},
       "sender": \(sender),
       "server": {"listen": "127.0.0.1:0"},
       "trust": {"roots": ["ca/root.pem"]}}
      """
    try config.write(
      to: folder.appendingPathComponent("reckon.json"), atomically: true, encoding: .utf8)
    return folder
  }
}
