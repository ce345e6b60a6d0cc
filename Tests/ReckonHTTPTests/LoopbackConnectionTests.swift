import Foundation
import Testing

@testable import ReckonHTTP

/// The raw-byte client tests and benchmarks speak to a server through.
struct LoopbackConnectionTests {
  @Test func aPortNothingListensOnIsRefusedNamingIt() throws {
    let (held, port) = try LoopbackListener.boundSocket()
    defer { Socket.close(held) }
    let error = #expect(throws: LoopbackConnection.Refused.self) {
      try LoopbackConnection(port: port)
    }
    #expect(error?.port == port)
    #expect(error?.description.hasPrefix("cannot connect to 127.0.0.1:\(port)") == true)
  }

  @Test func bytesSentAreAnsweredAndTheCloseIsSeen() throws {
    let listener = try LoopbackListener { _ in (Data("HTTP/1.1 204 No Content\r\n\r\n".utf8), true)
    }
    defer { listener.stop() }
    let connection = try LoopbackConnection(port: listener.port, noDelay: true)
    #expect(connection.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n"))
    let answer = connection.receiveAll(timeout: 5)
    #expect(String(decoding: answer, as: UTF8.self) == "HTTP/1.1 204 No Content\r\n\r\n")
    #expect(connection.receive(timeout: 1) == .closed)
  }

  /// A second loopback address stands for a second client: the server sees it as the peer.
  @Test func aConnectionFromAnotherLoopbackAddressComesFromThere() throws {
    let server = HTTPServer(synchronousHandler: { .text(200, $0.client ?? "unknown") })
    let port = try server.start()
    defer { server.shutdown(timeout: 1) }
    let connection = try LoopbackConnection(port: port, from: "127.0.0.2")
    connection.send("GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
    let answer = String(decoding: connection.receiveAll(timeout: 5), as: UTF8.self)
    #expect(answer.contains("\r\n\r\n127.0.0.2:"), "\(answer)")
  }

  @Test func aSilentServerGivesNothingAndDoesNotClose() throws {
    let listener = try LoopbackListener { _ in nil }
    defer { listener.stop() }
    let connection = try LoopbackConnection(port: listener.port)
    connection.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
    #expect(connection.receive(timeout: 0) == .nothing)
    #expect(connection.receive(timeout: 0.2) == .nothing)
    #expect(!connection.isClosedByPeer(within: 0.2))
    connection.close()
    connection.close()
  }
}
