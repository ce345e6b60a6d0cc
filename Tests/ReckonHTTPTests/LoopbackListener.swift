import Foundation

@testable import ReckonHTTP

#if canImport(Glibc)
  import Glibc
#endif

/// A loopback server for the HTTP client's tests that answers with raw bytes, so a test can send
/// what `HTTPServer` never would: a body delimited by closing, or silence. It reads requests
/// with the server's own `Socket` and `HTTPRequestParser`; only its answers are hand-made. It
/// counts connections; accepting and serving run on their own threads, never on Swift's
/// cooperative pool; `stop()` closes everything.
final class LoopbackListener: @unchecked Sendable {
  /// The raw bytes to answer a request with and whether to close the connection after; nil
  /// stays silent, holding the connection open.
  typealias Reply = @Sendable (HTTPRequest) -> (bytes: Data, close: Bool)?

  let port: Int
  private let socket: Int32
  private let reply: Reply
  private let lock = NSLock()
  private var connections: [Int32] = []
  private var accepted = 0
  private var stopped = false

  /// Listens on an ephemeral port of 127.0.0.1.
  init(reply: @escaping Reply) throws {
    self.reply = reply
    (socket, port) = try Socket.listen(host: "127.0.0.1", port: 0, backlog: 16)
    let thread = Thread { [self] in acceptLoop() }
    thread.start()
  }

  /// A socket bound to 127.0.0.1 on an ephemeral port; connecting to it, unlistened, is refused.
  static func boundSocket() throws -> (Int32, Int) {
    try Socket.bound(host: "127.0.0.1", port: 0)
  }

  /// How many TCP connections were accepted so far.
  var connectionCount: Int { lock.withLock { accepted } }

  /// Closes the listener and every connection.
  func stop() {
    lock.withLock {
      stopped = true
      for descriptor in connections { _ = Glibc.shutdown(descriptor, Int32(SHUT_RDWR)) }
    }
    // Wakes the accepting thread's blocked accept.
    Glibc.shutdown(socket, Int32(SHUT_RDWR))
  }

  deinit { Socket.close(socket) }

  private func acceptLoop() {
    while let descriptor = Socket.accept(socket) {
      let keep = lock.withLock {
        guard !stopped else { return false }
        accepted += 1
        connections.append(descriptor)
        return true
      }
      guard keep else {
        Socket.close(descriptor)
        return
      }
      Thread { [self] in serve(descriptor) }.start()
    }
  }

  /// Reads requests and answers each with `reply`, until either side closes.
  private func serve(_ descriptor: Int32) {
    defer {
      // Forgotten and closed under the lock stop() shuts down under, so stop() never shuts down
      // a descriptor number another test has been given since.
      lock.withLock {
        connections.removeAll { $0 == descriptor }
        Socket.close(descriptor)
      }
    }
    var parser = HTTPRequestParser()
    while true {
      let request: HTTPRequest?
      do { request = try parser.next() } catch { return }
      guard let request else {
        guard let bytes = Socket.read(descriptor) else { return }
        parser.feed(bytes)
        continue
      }
      guard let (bytes, closing) = reply(request) else {
        // Silent: hold the connection until the client or stop() closes it.
        while Socket.read(descriptor) != nil {}
        return
      }
      guard Socket.write(descriptor, Array(bytes), timeout: 5), !closing else { return }
    }
  }

  /// An HTTP/1.1 response with a Content-Length, kept alive.
  static func response(
    status: Int, headers: [String] = [], body: Data = Data(), close: Bool = false
  ) -> (bytes: Data, close: Bool) {
    let lines =
      ["HTTP/1.1 \(status) X", "Content-Length: \(body.count)"] + headers
      + (close ? ["Connection: close"] : [])
    return (Data((lines.joined(separator: "\r\n") + "\r\n\r\n").utf8) + body, close)
  }
}
