import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// A raw TCP listener on 127.0.0.1 for the HTTP transport tests: it counts connections and
/// answers each request on a connection with `reply` (nil: stay silent, holding the connection
/// open). Accepting and serving run on their own threads, never on Swift's cooperative pool;
/// `stop()` closes everything.
final class LoopbackListener: @unchecked Sendable {
  /// The raw bytes to answer a request head with, and whether to close the connection after.
  typealias Reply = @Sendable (_ head: String) -> (bytes: Data, close: Bool)?

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
    let (fd, port) = try Self.boundSocket()
    guard listen(fd, 16) == 0 else { throw POSIXError(.EADDRINUSE) }
    socket = fd
    self.port = port
    let thread = Thread { [self] in acceptLoop() }
    thread.start()
  }

  /// A socket bound to 127.0.0.1 on an ephemeral port; connecting to it, unlistened, is refused.
  static func boundSocket() throws -> (Int32, Int) {
    let fd = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { throw POSIXError(.EMFILE) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = 0
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0
      }
    }
    guard bound else {
      close(fd)
      throw POSIXError(.EADDRINUSE)
    }
    return (fd, Int(UInt16(bigEndian: address.sin_port)))
  }

  /// How many TCP connections were accepted so far.
  var connectionCount: Int { lock.withLock { accepted } }

  /// Closes the listener and every connection.
  func stop() {
    lock.withLock {
      stopped = true
      for fd in connections { _ = Glibc.shutdown(fd, Int32(SHUT_RDWR)) }
    }
    Glibc.shutdown(socket, Int32(SHUT_RDWR))
  }

  deinit { close(socket) }

  private func acceptLoop() {
    while true {
      let fd = accept(socket, nil, nil)
      guard fd >= 0 else { return }
      let keep = lock.withLock {
        guard !stopped else { return false }
        accepted += 1
        connections.append(fd)
        return true
      }
      guard keep else {
        close(fd)
        return
      }
      Thread { [self] in serve(fd) }.start()
    }
  }

  /// Reads request heads (and Content-Length bodies) and answers each.
  private func serve(_ fd: Int32) {
    defer {
      // Forgotten and closed under the lock stop() shuts down under, so stop() never shuts down
      // a descriptor number another test has been given since.
      lock.withLock {
        connections.removeAll { $0 == fd }
        close(fd)
      }
    }
    var buffer = Data()
    var chunk = [UInt8](repeating: 0, count: 4096)
    while true {
      while buffer.range(of: Data("\r\n\r\n".utf8)) == nil {
        let count = read(fd, &chunk, chunk.count)
        guard count > 0 else { return }
        buffer.append(contentsOf: chunk[0..<count])
      }
      let end = buffer.range(of: Data("\r\n\r\n".utf8))!
      let head = String(decoding: buffer[buffer.startIndex..<end.lowerBound], as: UTF8.self)
      let length =
        head.split(separator: "\r\n").first { $0.lowercased().hasPrefix("content-length:") }
        .flatMap { Int($0.split(separator: ":")[1].trimmingCharacters(in: .whitespaces)) } ?? 0
      while buffer.count < end.upperBound - buffer.startIndex + length {
        let count = read(fd, &chunk, chunk.count)
        guard count > 0 else { return }
        buffer.append(contentsOf: chunk[0..<count])
      }
      buffer = Data(buffer[(end.upperBound + length)...])
      guard let (bytes, closing) = reply(head) else {
        // Silent: hold the connection until the client or stop() closes it.
        while read(fd, &chunk, chunk.count) > 0 {}
        return
      }
      let written = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
      guard written == bytes.count, !closing else { return }
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
