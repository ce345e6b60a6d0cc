import Dispatch
import Foundation
import ReckonHTTP
import ReckonTestSupport
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

@Suite struct HTTPServerTests {
  @Test func portZeroPicksAPortAndRequestsAreAnswered() async throws {
    let server = HTTPServer { request in
      .text(200, "\(request.method) \(request.path) \(request.body.count)")
    }
    let port = try server.start()
    defer { server.shutdown() }
    #expect(port > 0)
    var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)/hello")!)
    request.httpMethod = "PUT"
    request.httpBody = Data("abc".utf8)
    for _ in 0..<3 {
      let (data, response) = try await URLSession.shared.data(for: request)
      #expect((response as? HTTPURLResponse)?.statusCode == 200)
      #expect(String(decoding: data, as: UTF8.self) == "PUT /hello 3")
    }
  }

  @Test func concurrentConnectionsAreServed() async throws {
    let server = HTTPServer { request in
      try? await Task.sleep(nanoseconds: 50_000_000)
      return .text(200, request.path)
    }
    let port = try server.start()
    defer { server.shutdown() }
    let paths = try await withThrowingTaskGroup(of: String.self) { group in
      for index in 0..<8 {
        group.addTask {
          let (data, _) = try await URLSession.shared.data(
            from: URL(string: "http://127.0.0.1:\(port)/\(index)")!)
          return String(decoding: data, as: UTF8.self)
        }
      }
      return try await group.reduce(into: Set<String>()) { $0.insert($1) }
    }
    #expect(paths.count == 8)
  }

  @Test func shutdownLetsAnInFlightRequestFinish() async throws {
    let started = DispatchSemaphore(value: 0)
    let server = HTTPServer { _ in
      started.signal()
      try? await Task.sleep(nanoseconds: 300_000_000)
      return .text(200, "finished")
    }
    let port = try server.start()
    let pending = Task {
      try await URLSession.shared.data(from: URL(string: "http://127.0.0.1:\(port)/slow")!)
    }
    // Shut down once the request is in the handler: a fixed sleep raced a slow connect, and a
    // request that arrives after shutdown began is, rightly, not served.
    await Task.detached {
      started.wait()
      server.shutdown()
    }.value
    let (data, _) = try await pending.value
    #expect(String(decoding: data, as: UTF8.self) == "finished")
  }

  @Test func aMalformedRequestGetsAClear400OnTheSocket() throws {
    let server = HTTPServer { _ in .text(200, "never") }
    let port = try server.start()
    defer { server.shutdown() }
    let reply = try RawSocket.exchange(port: port, "NOT HTTP\r\n\r\n")
    #expect(reply.hasPrefix("HTTP/1.1 400 Bad Request"))
  }

  /// A TLS handshake sent to the plain-HTTP port is answered 400 at once, not held for the read
  /// timeout with a connection slot.
  @Test func aTLSHandshakeIsAnswered400AtOnce() throws {
    let server = HTTPServer(configuration: .init(readTimeout: 30)) { _ in .text(200, "never") }
    let port = try server.start()
    defer { server.shutdown() }
    let started = Date()
    let reply = try RawSocket.exchange(port: port, "\u{16}\u{03}\u{01}\u{02}\u{00}", wait: 20)
    #expect(reply.hasPrefix("HTTP/1.1 400 Bad Request"), "\(reply)")
    #expect(Date().timeIntervalSince(started) < 10)
  }

  @Test func connectionsBeyondTheLimitAreAnswered503AndClosedUntilOneFrees() throws {
    let refusals = Refusals()
    let server = HTTPServer(
      configuration: .init(readTimeout: 30, maximumConnections: 2), refused: refusals.append,
      synchronousHandler: { _ in .text(200, "ok") })
    let port = try server.start()
    defer { server.shutdown(timeout: 1) }
    // Both part-way through a request, so neither is idle enough to make room.
    let first = try RawSocket.busy(port: port, on: server, count: 1)
    let second = try RawSocket.busy(port: port, on: server, count: 2)
    defer { second.close() }
    let request = "GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
    let refused = try RawSocket.exchange(port: port, request, wait: 5)
    #expect(refused.hasPrefix("HTTP/1.1 503"))
    #expect(refused.contains("Retry-After: 1"))
    // Reported off the accepting thread, with the others of the same second.
    for _ in 0..<60 where refusals.all.isEmpty { usleep(50_000) }
    #expect(
      refusals.all == [HTTPRefusal(status: 503, reason: "too many connections (2 open)", count: 1)],
      "the refusal is reported, so an operator sees the limit is too low")
    first.close()
    var served = ""
    for _ in 0..<40 where !served.hasPrefix("HTTP/1.1 200") {
      usleep(50_000)  // the server notices the close within its 50 ms poll
      served = try RawSocket.exchange(port: port, request, wait: 5)
    }
    #expect(served.hasPrefix("HTTP/1.1 200"))
  }

  /// Connections over the limit are reported together, once a second at most, with their
  /// count; each burst on its own, and the last before a stop before `shutdown` returns.
  @Test func refusedConnectionsAreReportedByTheSecondAndAtShutdown() throws {
    let refusals = Refusals()
    let server = HTTPServer(
      configuration: .init(readTimeout: 30, maximumConnections: 1), refused: refusals.append,
      synchronousHandler: { _ in .text(200, "ok") })
    let port = try server.start()
    let held = try RawSocket.busy(port: port, on: server, count: 1)
    defer { held.close() }
    let request = "GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
    for _ in 0..<3 { _ = try RawSocket.exchange(port: port, request, wait: 5) }
    for _ in 0..<60 where refusals.all.isEmpty { usleep(50_000) }
    for _ in 0..<2 { _ = try RawSocket.exchange(port: port, request, wait: 5) }
    server.shutdown(timeout: 1)
    #expect(refusals.all.map(\.count) == [3, 2], "\(refusals.all)")
  }

  /// A client that pipelines requests and never reads their answers used to hold its thread in
  /// `send`, and its connection slot, for as long as it liked; now it is closed at the write
  /// timeout and the slot serves others.
  @Test func aClientThatStopsReadingIsClosedAtTheWriteTimeoutFreeingItsSlot() throws {
    let big = String(repeating: "x", count: 256 * 1_024)
    let server = HTTPServer(
      configuration: .init(readTimeout: 30, writeTimeout: 0.5, maximumConnections: 1),
      synchronousHandler: { _ in .text(200, big) })
    let port = try server.start()
    defer { server.shutdown(timeout: 1) }
    let stalled = try RawSocket.connected(port: port)
    defer { stalled.close() }
    let pipelined = Array(String(repeating: "GET / HTTP/1.1\r\nHost: x\r\n\r\n", count: 100).utf8)
    stalled.send(pipelined)
    let request = "GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
    var served = ""
    let started = Date()
    while !served.hasPrefix("HTTP/1.1 200"), Date().timeIntervalSince(started) < 15 {
      usleep(200_000)
      served = try RawSocket.exchange(port: port, request, wait: 5)
    }
    #expect(served.hasPrefix("HTTP/1.1 200"), "\(served.prefix(40))")
  }

  /// A HEAD answer carries the GET's length and no body; a body there was read as the start of
  /// the next response on the connection.
  @Test func aHeadAnswerHasNoBodySoTheNextAnswerOnTheConnectionIsReadWhole() throws {
    let server = HTTPServer(synchronousHandler: { _ in .text(200, "hello") })
    let port = try server.start()
    defer { server.shutdown(timeout: 1) }
    let reply = try RawSocket.exchange(
      port: port,
      "HEAD /healthz HTTP/1.1\r\nHost: x\r\n\r\nGET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
      wait: 5)
    let answers = reply.components(separatedBy: "HTTP/1.1 200 OK\r\n")
    #expect(answers.count == 3, "\(reply)")
    #expect(answers[1].contains("Content-Length: 5\r\n"))
    #expect(answers[1].hasSuffix("\r\n\r\n"), "\(answers[1])")
    #expect(answers[2].hasSuffix("\r\n\r\nhello"), "\(answers[2])")
  }

  /// A client that asks before sending its body is told to go on, once; curl otherwise waits a
  /// second for each such request. Reads of a few bytes wait for more, after 100 Continue too,
  /// and a body trickled in a byte at a time is still read whole.
  @Test(arguments: [false, true])
  func aClientExpectingContinueIsToldToGoOnBeforeItSendsTheBody(trickled: Bool) throws {
    let server = HTTPServer(synchronousHandler: {
      .text(200, String(decoding: $0.body, as: UTF8.self))
    })
    let port = try server.start()
    defer { server.shutdown(timeout: 1) }
    let socket = try RawSocket.connected(port: port)
    defer { socket.close() }
    let body = "0123456789abcdefghij"
    #expect(
      try RawSocket.answer(
        on: socket,
        to:
          "POST /x HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n"
      ) == "HTTP/1.1 100 Continue\r\n\r\n")
    let pieces = trickled ? body.utf8.map { [$0] } : [Array(body.utf8)]
    for piece in pieces {
      socket.send(piece)
      if trickled { usleep(2_000) }
    }
    let answer = try RawSocket.answer(on: socket, to: "")
    #expect(answer.hasPrefix("HTTP/1.1 200 OK\r\n"), "\(answer)")
    #expect(answer.hasSuffix("\r\n\r\n\(body)"), "\(answer)")
  }

  /// Clients holding keep-alive connections open between requests cannot fill the server: at
  /// the limit a new connection takes the place of the one idle longest, and one part-way
  /// through a request is never the one closed.
  @Test func atTheLimitANewConnectionClosesTheLongestIdleOne() throws {
    let refusals = Refusals()
    let server = HTTPServer(
      configuration: .init(readTimeout: 30, maximumConnections: 3), refused: refusals.append,
      synchronousHandler: { _ in .text(200, "ok") })
    let port = try server.start()
    defer { server.shutdown(timeout: 1) }
    let keepAlive = "GET / HTTP/1.1\r\nHost: x\r\n\r\n"
    let oldest = try RawSocket.connected(port: port)
    defer { oldest.close() }
    #expect(try RawSocket.answer(on: oldest, to: keepAlive).hasPrefix("HTTP/1.1 200"))
    // The answer can arrive before its thread marks the connection idle: wait for that.
    try RawSocket.wait(for: server, open: 1, busy: 0)
    let newer = try RawSocket.connected(port: port)
    defer { newer.close() }
    #expect(try RawSocket.answer(on: newer, to: keepAlive).hasPrefix("HTTP/1.1 200"))
    try RawSocket.wait(for: server, open: 2, busy: 0)
    let busy = try RawSocket.busy(port: port, on: server, count: 3, busy: 1)
    defer { busy.close() }
    // Only a connection idle for a second or more is closed for another.
    usleep(1_100_000)

    let request = "GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
    #expect(try RawSocket.exchange(port: port, request, wait: 5).hasPrefix("HTTP/1.1 200"))
    #expect(RawSocket.closedByPeer(oldest), "the longest idle made room")
    #expect(try RawSocket.answer(on: newer, to: keepAlive).hasPrefix("HTTP/1.1 200"))
    busy.send("Host: x\r\nConnection: close\r\n\r\n")
    #expect(try RawSocket.answer(on: busy, to: "").hasPrefix("HTTP/1.1 200"), "never evicted")
    #expect(refusals.all.isEmpty)
  }

  /// One address may hold only its share of the connections; past it, its own idle connection
  /// makes room, and when it has none the new one is refused while other clients are served.
  @Test func oneClientIsHeldToItsShareOfConnections() throws {
    let refusals = Refusals()
    let server = HTTPServer(
      configuration: .init(readTimeout: 30, maximumConnections: 8, maximumConnectionsPerClient: 2),
      refused: refusals.append, synchronousHandler: { _ in .text(200, "ok") })
    let port = try server.start()
    defer { server.shutdown(timeout: 1) }
    let first = try RawSocket.busy(port: port, on: server, count: 1)
    defer { first.close() }
    let second = try RawSocket.busy(port: port, on: server, count: 2)
    defer { second.close() }
    let request = "GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
    #expect(try RawSocket.exchange(port: port, request, wait: 5).hasPrefix("HTTP/1.1 503"))
    server.shutdown(timeout: 1)
    #expect(
      refusals.all == [
        HTTPRefusal(
          status: 503, reason: "too many connections from one client (2 open)", count: 1,
          client: "127.0.0.1")
      ])
  }

  @Test func anIdleConnectionIsClosedAfterTheReadTimeout() throws {
    let server = HTTPServer(configuration: .init(readTimeout: 0.3)) { _ in .text(200, "never") }
    let port = try server.start()
    defer { server.shutdown() }
    let started = Date()
    let reply = try RawSocket.exchange(port: port, "GET / HTTP/1.1\r\n")
    #expect(reply.hasPrefix("HTTP/1.1 408"))
    #expect(Date().timeIntervalSince(started) < 5)
  }
}

/// The requests an `HTTPServer` reported answering itself.
final class Refusals: @unchecked Sendable {
  private let lock = NSLock()
  private var refusals: [HTTPRefusal] = []

  var append: @Sendable (HTTPRefusal) -> Void {
    { [self] refusal in lock.withLock { refusals.append(refusal) } }
  }

  var all: [HTTPRefusal] { lock.withLock { refusals } }
}
