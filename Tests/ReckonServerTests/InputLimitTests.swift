import Dispatch
import Foundation
import ReckonAppStore
import ReckonEngine
import ReckonHTTP
import ReckonServer
import ReckonSupport
import ReckonTestSupport
import Testing

/// The limits on what a client can make the webhook hold or do, as docs/security.md lists them.
@Suite struct InputLimitTests {
  @Test func theDefaultLimitsAreTheDocumentedOnes() throws {
    let limits = HTTPRequestParser.Limits()
    #expect(limits.maximumHeaderBytes == 16_384)
    #expect(limits.maximumHeaderCount == 100)
    #expect(limits.maximumBodyBytes == 262_144)
    #expect(HTTPServer.Configuration().readTimeout == 10)
    let json = #"{"apps": [{"bundleId": "com.example", "environment": "Sandbox", "policy": "p"}]}"#
    let root = try JSONValue.parse(Data(json.utf8)).objectValue ?? [:]
    let configuration = try ReckonConfiguration(
      ConfigurationReader(root, path: ""), baseDirectory: "/tmp")
    #expect(configuration.server.maximumBodyBytes == 262_144)
  }

  @Test func jsonNestedDeeperThan256LevelsIsRefused() throws {
    func nested(_ depth: Int) -> Data {
      Data((String(repeating: "[", count: depth) + String(repeating: "]", count: depth)).utf8)
    }
    #expect((try? JSONValue.parse(nested(256))) != nil)
    #expect(throws: JSONParseError.self) { try JSONValue.parse(nested(257)) }
  }

  @Test func anOversizedBodyIs413AndTheConnectionIsClosedUnread() async throws {
    let calls = CallCount()
    let server = HTTPServer(configuration: .init(limits: .init(maximumBodyBytes: 1_024))) { _ in
      calls.increment()
      return .text(200, "handled")
    }
    let port = try server.start()
    // The client keeps its socket open and would wait a minute: only the server closing the
    // connection ends the read with end-of-file.
    let (reply, closed) = try await Trickle.exchange(
      port: port,
      "POST /apple/notifications HTTP/1.1\r\nContent-Length: 5000\r\n\r\n"
        + String(repeating: "x", count: 100), wait: 60)
    await ServerFixture.offPool { server.shutdown() }
    #expect(reply.hasPrefix("HTTP/1.1 413"), "got: \(reply.prefix(60))")
    #expect(reply.contains("Connection: close"))
    #expect(closed, "the server did not close the connection")
    #expect(calls.value == 0)
  }

  @Test func aRequestTricklingInIsCutOffAtTheReadTimeout() async throws {
    let server = HTTPServer(configuration: .init(readTimeout: 0.5)) { _ in .text(200, "handled") }
    let port = try server.start()
    let (elapsed, reply) = try await Trickle.send(
      port: port,
      "POST / HTTP/1.1\r\nContent-Length: 10000\r\n\r\n" + String(repeating: "x", count: 10_000),
      every: 0.05, giveUpAfter: 60)
    await ServerFixture.offPool { server.shutdown() }
    // One byte every 50 ms would take 500 s; the 0.5 s timeout counts from the connection's start,
    // so the server cuts it off long before the client gives up (slack for a loaded machine).
    #expect(elapsed < 30, "the connection stayed open \(elapsed) s")
    #expect(reply.isEmpty || reply.hasPrefix("HTTP/1.1 408"), "got: \(reply.prefix(60))")
  }
}

/// How often a handler ran.
final class CallCount: @unchecked Sendable {
  private let lock = NSLock()
  private var count = 0

  func increment() { lock.withLock { count += 1 } }

  var value: Int { lock.withLock { count } }
}

/// Loopback clients for the limits (one that trickles a byte at a time, one that tells a close
/// from a timeout), on GCD threads so no cooperative thread blocks.
enum Trickle {
  struct Failure: Error {}

  /// Sends `text` a byte every `interval` seconds until the server answers or closes; returns
  /// how long the connection lasted and what the server wrote.
  static func send(port: Int, _ text: String, every interval: Double, giveUpAfter limit: Double)
    async throws -> (Double, String)
  {
    try await withCheckedThrowingContinuation { continuation in
      DispatchQueue.global().async {
        continuation.resume(
          with: Result { try blockingSend(port: port, text, every: interval, giveUpAfter: limit) })
      }
    }
  }

  /// Sends `text` at once and reads until end-of-file or `wait` seconds without data; returns
  /// what arrived and whether the server closed the connection (end-of-file, not the timeout).
  static func exchange(port: Int, _ text: String, wait seconds: Int) async throws -> (
    String, Bool
  ) {
    try await withCheckedThrowingContinuation { continuation in
      DispatchQueue.global().async {
        continuation.resume(with: Result { try blockingExchange(port: port, text, wait: seconds) })
      }
    }
  }

  private static func blockingExchange(port: Int, _ text: String, wait seconds: Int) throws -> (
    String, Bool
  ) {
    let connection = try RawSocket.connected(port: port)
    defer { connection.close() }
    connection.send(text)
    var received: [UInt8] = []
    while true {
      switch connection.receive(timeout: Double(seconds)) {
      case .bytes(let bytes): received += bytes
      case .closed: return (String(decoding: received, as: UTF8.self), true)
      case .nothing: return (String(decoding: received, as: UTF8.self), false)
      }
    }
  }

  private static func blockingSend(
    port: Int, _ text: String, every interval: Double, giveUpAfter limit: Double
  ) throws -> (Double, String) {
    let connection = try RawSocket.connected(port: port)
    defer { connection.close() }
    let started = Date()
    var received: [UInt8] = []
    for byte in Array(text.utf8) where Date().timeIntervalSince(started) < limit {
      guard connection.send([byte]) else { break }
      Thread.sleep(forTimeInterval: interval)
      let next = connection.receive(timeout: 0)
      if case .bytes(let bytes) = next { received += bytes }
      if next != .nothing { break }
    }
    return (Date().timeIntervalSince(started), String(decoding: received, as: UTF8.self))
  }
}
