import Foundation
import ReckonTestSupport
import Testing

/// A load balancer or monitor may probe with HEAD: `/healthz` and `/metrics` answer it as they
/// answer GET, without the body.
struct ProbeRouteTests {
  @Test(arguments: ["/healthz", "/metrics"])
  func headIsAnsweredLikeGetWithoutTheBody(path: String) async throws {
    let fixture = try ServerFixture()
    let reply = try RawSocket.exchange(
      port: fixture.port, "HEAD \(path) HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", wait: 10)
    await fixture.stop()
    #expect(reply.hasPrefix("HTTP/1.1 200"), "\(reply)")
    let length = reply.split(separator: "\r\n").first {
      $0.lowercased().hasPrefix("content-length:")
    }
    #expect(length.map { !$0.hasSuffix(" 0") } == true, "\(reply)")
    #expect(reply.hasSuffix("\r\n\r\n"), "a body came after the head: \(reply)")
  }

  @Test func anotherMethodOnMetricsIsRefusedNamingBoth() async throws {
    let fixture = try ServerFixture()
    let reply = try RawSocket.exchange(
      port: fixture.port, "DELETE /metrics HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
      wait: 10)
    await fixture.stop()
    #expect(reply.hasPrefix("HTTP/1.1 405"), "\(reply)")
    #expect(reply.contains("Allow: GET, HEAD"), "\(reply)")
  }
}
