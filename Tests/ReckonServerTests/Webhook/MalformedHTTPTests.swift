import Foundation
import ReckonHTTP
import ReckonTestSupport
import Testing

/// Bad HTTP at the webhook is answered 4xx or dropped, and never harms other connections.
@Suite struct MalformedHTTPTests {
  struct Case: CustomTestStringConvertible, Sendable {
    let name: String
    let bytes: String
    let status: String
    var testDescription: String { name }
  }

  static let cases = [
    Case(
      name: "oversized headers",
      bytes:
        "POST /apple/notifications HTTP/1.1\r\nX-Big: \(String(repeating: "a", count: 20_000))\r\n\r\n",
      status: "431"),
    Case(
      name: "oversized body",
      bytes: "POST /apple/notifications HTTP/1.1\r\nContent-Length: 1000000\r\n\r\n{}",
      status: "413"),
    Case(name: "garbage", bytes: "\u{1}\u{2}hello there\r\n\r\n", status: "400"),
    Case(
      name: "chunked body",
      bytes: "POST /apple/notifications HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
      status: "411"),
  ]

  @Test(arguments: cases)
  func isRefusedWithA4xx(_ bad: Case) async throws {
    let fixture = try ServerFixture(maximumBodyBytes: 65_536)
    let reply = try await RawClient.exchange(port: fixture.port, bad.bytes, wait: 5)
    let (status, _) = try await fixture.post(try fixture.body())
    let metrics = try await fixture.get("/metrics").1
    await fixture.stop()
    #expect(reply.hasPrefix("HTTP/1.1 \(bad.status)"), "got: \(reply.prefix(60))")
    #expect(status == 200)
    // Said and counted: a body limit set too small must not lose notifications unseen.
    let logged = fixture.logLines.all.filter { $0.contains(#""event":"http_refused""#) }
    #expect(logged.count == 1, "\(fixture.logLines.all)")
    #expect(logged.first?.contains(#""status":\#(bad.status)"#) == true, "\(logged)")
    #expect(logged.first?.contains(#""level":"warning""#) == true)
    #expect(
      metrics.contains(#"reckon_http_refused_total{status="\#(bad.status)"} 1"#), "\(metrics)")
  }

  /// Apple posting to a wrong path, or a browser opening the webhook: 404 and 405, said with
  /// the path (cut short: whoever connects chooses it) and counted.
  @Test func aRequestForAnotherPathOrMethodIsLoggedAndCounted() async throws {
    let fixture = try ServerFixture()
    let (wrongPath, _) = try await fixture.post(try fixture.body(), path: "/apple/notification")
    let (wrongMethod, _) = try await fixture.get("/apple/notifications")
    let long = "/" + String(repeating: "x", count: 5_000)
    let (longPath, _) = try await fixture.get(long)
    let metrics = try await fixture.get("/metrics").1
    await fixture.stop()
    let statuses: [Int] = [wrongPath, wrongMethod, longPath]
    #expect(statuses == [404, 405, 404])
    let logged = fixture.logLines.all.filter { $0.contains(#""event":"http_refused""#) }
    #expect(logged.count == 3, "\(fixture.logLines.all)")
    #expect(logged.first?.contains(#""path":"/apple/notification""#) == true, "\(logged)")
    // Who sent it: the connection's peer.
    #expect(logged.allSatisfy { $0.contains(#""client":"127.0.0.1:"#) }, "\(logged)")
    #expect(logged.first?.contains("POST no route (the webhook is /apple/notifications)") == true)
    #expect(logged.allSatisfy { $0.utf8.count < 1_000 }, "a long path is quoted cut short")
    // A scanner's or a probe's 404 is no warning on every line; the metric shows them all.
    #expect(logged.allSatisfy { $0.contains(#""level":"info""#) }, "\(logged)")
    #expect(metrics.contains(#"reckon_http_refused_total{status="404"} 2"#), "\(metrics)")
    #expect(metrics.contains(#"reckon_http_refused_total{status="405"} 1"#), "\(metrics)")
  }

  @Test func aSlowClientTimesOutWhileOthersAreServed() async throws {
    let fixture = try ServerFixture(readTimeout: 0.5)
    async let slow = RawClient.exchange(
      port: fixture.port,
      "POST /apple/notifications HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{\"signed",
      wait: 5)
    try await Task.sleep(nanoseconds: 50_000_000)
    let started = Date()
    let (status, _) = try await fixture.post(try fixture.body())
    let served = Date().timeIntervalSince(started)
    let reply = try await slow
    await fixture.stop()
    #expect(status == 200)
    // Loose: the suite shares two cores; what matters is being served while the slow one waits.
    #expect(served < 30)
    #expect(reply.isEmpty || reply.hasPrefix("HTTP/1.1 408"))
    if reply.hasPrefix("HTTP/1.1 408") {
      #expect(fixture.logLines.all.contains { $0.contains(#""status":408"#) })
    }
  }
}

/// A loopback client for raw bytes, run on a GCD thread so no cooperative thread blocks.
enum RawClient {

  static func exchange(port: Int, _ text: String, wait seconds: Int) async throws -> String {
    try await withCheckedThrowingContinuation { continuation in
      DispatchQueue.global().async {
        continuation.resume(with: Result { try blockingExchange(port: port, text, wait: seconds) })
      }
    }
  }

  private static func blockingExchange(port: Int, _ text: String, wait seconds: Int) throws
    -> String
  {
    try RawSocket.exchange(port: port, text, wait: seconds)
  }
}
