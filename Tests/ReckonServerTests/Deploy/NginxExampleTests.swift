import Foundation
import ReckonHTTP
import ReckonTestSupport
import Testing

/// `examples/deploy/nginx/reckon.conf` in front of a webhook server, both on loopback: nginx
/// terminates TLS with a certificate made for the test, passes `/healthz` and the webhook path,
/// and refuses a body over the limit 413 itself. Only the listen port, the upstream's port and
/// the certificate's paths are changed; nginx runs as one process, stopped at the end.
@Suite(.serialized) struct NginxExampleTests {
  static let nginx = "/usr/sbin/nginx"
  static let curl = "/usr/bin/curl"
  static let openssl = "/usr/bin/openssl"

  @Test(
    .enabled(
      if: DeployExample.installed(nginx, curl, openssl),
      "needs nginx (apt-get install nginx-light, as scripts/install-packages does), curl and openssl"
    ),
    .timeLimit(.minutes(1)))
  func theExamplePassesHealthAndTheWebhookAndRefusesAnOversizedBody() async throws {
    let fixture = try ServerFixture()
    let folder = try DeployExample.folder("nginx")
    let (certificate, key) = try await Self.certificate(in: folder)
    let port = try DeployExample.freePort()
    try Self.configure(folder, port: port, upstream: fixture.port, certificate, key)
    let tested = try await ProcessOutput.run(
      URL(fileURLWithPath: Self.nginx),
      ["-t", "-q", "-p", folder.path, "-c", folder.appendingPathComponent("nginx.conf").path],
      limit: 10)
    #expect(tested.status == 0, "nginx -t: \(tested.error)")
    let nginx = try Self.start(folder)
    defer {
      // One process (master_process off), so a kill leaves no worker behind.
      if nginx.isRunning { nginx.send(SIGKILL) }
      nginx.waitUntilExit()
    }
    let listening = await ServerFixture.eventually(within: 10) {
      (try? RawSocket.connected(port: port)) != nil
    }
    #expect(listening, "nginx did not listen: \(Self.errorLog(folder))")

    let url = "https://127.0.0.1:\(port)"
    let health = try await Self.curl(["\(url)/healthz"], certificate)
    #expect(health.status == 200, "\(health)")
    #expect(health.body.contains(#""status":"ok""#), "\(health)")
    // Through to Reckon, which refuses what is not a notification.
    let notANotification = try await Self.curl(
      [
        "-X", "POST", "-H", "Content-Type: application/json", "--data-binary", "{}",
        "\(url)/apple/notifications",
      ], certificate)
    #expect(notANotification.status == 400, "\(notANotification)")
    let oversized = folder.appendingPathComponent("oversized.json")
    try Data(repeating: UInt8(ascii: "x"), count: 300_000).write(to: oversized)
    let refused = try await Self.curl(
      [
        "-X", "POST", "-H", "Content-Type: application/json", "--data-binary",
        "@\(oversized.path)", "\(url)/apple/notifications",
      ], certificate)
    #expect(refused.status == 413, "\(refused)")
    #expect(refused.body.contains("nginx"), "the 413 should come from nginx: \(refused)")
    let metrics = try await Self.curl(["\(url)/metrics"], certificate)
    #expect(metrics.status == 404, "/metrics must not be passed from outside: \(metrics)")

    nginx.send(SIGTERM)
    await CrashRecoveryTests.waitForExit(nginx)
    await fixture.stop()
  }

  /// The example with its ports and certificate put where the test has them, inside a main
  /// configuration of the test's own (its logs, pid and temporary files in `folder`).
  static func configure(
    _ folder: URL, port: Int, upstream: Int, _ certificate: String, _ key: String
  ) throws {
    var site = try DeployExample.text("nginx/reckon.conf")
    site = try DeployExample.substituting(
      "listen 443 ssl http2;", "listen 127.0.0.1:\(port) ssl http2;", in: site)
    site = try DeployExample.substituting(
      "server 127.0.0.1:8080;", "server 127.0.0.1:\(upstream);", in: site)
    site = try DeployExample.substituting(
      "/etc/letsencrypt/live/refunds.example.com/fullchain.pem", certificate, in: site)
    site = try DeployExample.substituting(
      "/etc/letsencrypt/live/refunds.example.com/privkey.pem", key, in: site)
    try Data(site.utf8).write(to: folder.appendingPathComponent("reckon.conf"))
    let path = folder.path
    let main = """
      daemon off;
      master_process off;
      worker_processes 1;
      pid \(path)/nginx.pid;
      error_log \(path)/error.log warn;
      events { worker_connections 64; }
      http {
        access_log \(path)/access.log;
        client_body_temp_path \(path)/client-body;
        proxy_temp_path \(path)/proxy;
        fastcgi_temp_path \(path)/fastcgi;
        uwsgi_temp_path \(path)/uwsgi;
        scgi_temp_path \(path)/scgi;
        include \(path)/reckon.conf;
      }
      """
    try Data(main.utf8).write(to: folder.appendingPathComponent("nginx.conf"))
  }

  static func start(_ folder: URL) throws -> ChildProcess {
    let process = ChildProcess()
    process.executableURL = URL(fileURLWithPath: nginx)
    process.arguments = [
      "-p", folder.path, "-c", folder.appendingPathComponent("nginx.conf").path,
    ]
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    return process
  }

  /// A self-signed certificate for 127.0.0.1, and its key.
  static func certificate(in folder: URL) async throws -> (String, String) {
    let certificate = folder.appendingPathComponent("cert.pem").path
    let key = folder.appendingPathComponent("key.pem").path
    let made = try await ProcessOutput.run(
      URL(fileURLWithPath: openssl),
      [
        "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
        "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1", "-days", "1",
        "-keyout", key, "-out", certificate,
      ], limit: 20)
    guard made.status == 0 else {
      throw DeployExample.Missing(text: "a certificate: \(made.error)")
    }
    return (certificate, key)
  }

  /// One request by the curl program, trusting `certificate`: the status and the body.
  static func curl(_ arguments: [String], _ certificate: String) async throws -> (
    status: Int, body: String
  ) {
    let run = try await ProcessOutput.run(
      URL(fileURLWithPath: curl),
      ["-sS", "--max-time", "10", "--cacert", certificate, "-w", "\n%{http_code}"] + arguments,
      limit: 20)
    let lines = run.output.split(separator: "\n", omittingEmptySubsequences: false)
    return (Int(lines.last ?? "") ?? -1, lines.dropLast().joined(separator: "\n") + run.error)
  }

  static func errorLog(_ folder: URL) -> String {
    (try? String(contentsOf: folder.appendingPathComponent("error.log"), encoding: .utf8)) ?? ""
  }
}
