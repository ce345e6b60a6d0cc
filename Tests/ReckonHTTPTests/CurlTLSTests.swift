import Foundation
import ReckonSupport
import ReckonTestSupport
import Testing

@testable import ReckonHTTP

/// TLS verification stays on: an `openssl s_server` on loopback with a self-signed certificate
/// is refused before any request is sent.
@Suite("HTTP transport TLS verification")
struct CurlTLSTests {
  static let openssl = "/usr/bin/openssl"

  @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: openssl)))
  func aServerWithAnUntrustedCertificateIsRefused() async throws {
    let directory = TestScratch.folder.appendingPathComponent(
      "reckon-tls-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let key = directory.appendingPathComponent("key.pem").path
    let certificate = directory.appendingPathComponent("cert.pem").path
    let made = try await Self.run([
      "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
      "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1", "-days", "1",
      "-keyout", key, "-out", certificate,
    ])
    #expect(made == 0)

    // A free port: bound, noted and released for s_server (loopback only).
    let (probe, port) = try LoopbackListener.boundSocket()
    close(probe)
    let server = ChildProcess()
    server.executableURL = URL(fileURLWithPath: Self.openssl)
    server.arguments = [
      "s_server", "-accept", "127.0.0.1:\(port)", "-cert", certificate, "-key", key, "-www",
      "-quiet",
    ]
    server.standardOutput = FileHandle.nullDevice
    server.standardError = FileHandle.nullDevice
    try server.run()
    // SIGKILL, and reaped: the child inherits the test process's signal mask, in which SIGTERM
    // is blocked, so `terminate()` left one s_server running per test run.
    defer {
      kill(server.processIdentifier, SIGKILL)
      server.waitUntilExit()
    }

    let client = CurlHTTPClient(timeout: 5)
    let request = HTTPClientRequest(method: "GET", url: URL(string: "https://127.0.0.1:\(port)/")!)
    var outcome: Result<HTTPClientResponse, HTTPTransportError> = .failure(.failed("not tried"))
    // s_server needs a moment to listen; until then connecting is refused. Bounded to 5 s.
    for _ in 0..<50 {
      do { outcome = .success(try await client.perform(request)) } catch {
        outcome = .failure(error)
      }
      guard case .failure(.notSent(let why)) = outcome, why.contains("onnect") else { break }
      try await Task.sleep(nanoseconds: 100_000_000)
    }
    // Refused before any byte of the request left: no store can have recorded it.
    guard case .failure(.notSent(let why)) = outcome else {
      Issue.record("expected a certificate failure before sending, got \(outcome)")
      return
    }
    #expect(why.lowercased().contains("certificate"), "\(why)")
  }

  /// Runs openssl to completion on a GCD thread, off Swift's cooperative pool.
  static func run(_ arguments: [String]) async throws -> Int32 {
    try await withCheckedThrowingContinuation { continuation in
      DispatchQueue.global().async {
        let process = ChildProcess()
        process.executableURL = URL(fileURLWithPath: openssl)
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        do {
          try process.run()
          process.waitUntilExit()
          continuation.resume(returning: process.terminationStatus)
        } catch {
          continuation.resume(throwing: error)
        }
      }
    }
  }
}
