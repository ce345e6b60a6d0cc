import Foundation
import ReckonHTTP

#if canImport(Glibc)
  import Glibc
#endif

/// A blocking loopback client for raw bytes.
public enum RawSocket {
  /// The connection failed, or no answer came in time.
  public struct Failure: Error {}

  /// Sends `text` and reads until the server closes (or `wait` seconds pass without data).
  public static func exchange(port: Int, _ text: String, wait seconds: Int? = nil) throws -> String
  {
    let descriptor = try connected(port: port)
    defer { close(descriptor) }
    if let seconds {
      var timeout = timeval(tv_sec: seconds, tv_usec: 0)
      setsockopt(
        descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }
    let bytes = Array(text.utf8)
    _ = bytes.withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    var received: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4_096)
    while true {
      let count = recv(descriptor, &buffer, buffer.count, 0)
      guard count > 0 else { break }
      received += buffer.prefix(count)
    }
    return String(decoding: received, as: UTF8.self)
  }

  /// A connected loopback socket part-way through a request, once `server` counts `count`
  /// connections open of which `busy` (all, by default) are busy; the caller closes it.
  public static func busy(port: Int, on server: HTTPServer, count: Int, busy: Int? = nil) throws
    -> Int32
  {
    let descriptor = try connected(port: port)
    _ = Array("GET / HTTP/1.1\r\n".utf8).withUnsafeBytes {
      send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
    }
    do { try wait(for: server, open: count, busy: busy ?? count) } catch {
      close(descriptor)
      throw error
    }
    return descriptor
  }

  /// Waits up to 10 s for `server` to count `open` connections of which `busy` are busy.
  public static func wait(for server: HTTPServer, open: Int, busy: Int) throws {
    for _ in 0..<1_000 where server.openConnections != (open, busy) { usleep(10_000) }
    guard server.openConnections == (open, busy) else { throw Failure() }
  }

  /// Sends `text` on an open connection and reads one answer (up to 5 s).
  public static func answer(on descriptor: Int32, to text: String) throws -> String {
    var timeout = timeval(tv_sec: 5, tv_usec: 0)
    setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    _ = Array(text.utf8).withUnsafeBytes {
      send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
    }
    var buffer = [UInt8](repeating: 0, count: 4_096)
    let count = recv(descriptor, &buffer, buffer.count, 0)
    guard count > 0 else { throw Failure() }
    return String(decoding: buffer.prefix(count), as: UTF8.self)
  }

  /// Whether the server closed `descriptor` (waiting up to 2 s for it to).
  public static func closedByPeer(_ descriptor: Int32) -> Bool {
    var timeout = timeval(tv_sec: 2, tv_usec: 0)
    setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    var byte: UInt8 = 0
    return recv(descriptor, &byte, 1, 0) == 0
  }

  /// A connected loopback socket; the caller closes it.
  public static func connected(port: Int) throws -> Int32 {
    guard let descriptor = LoopbackSocket.connect(port: port) else { throw Failure() }
    return descriptor
  }
}
