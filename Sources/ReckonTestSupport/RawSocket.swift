import Foundation
import ReckonHTTP

/// Raw-byte exchanges with a server on loopback, over ReckonHTTP's `LoopbackConnection`.
public enum RawSocket {
  /// The connection failed, or no answer came in time.
  public struct Failure: Error {}

  /// Sends `text` and reads until the server closes (or `wait` seconds pass without data).
  public static func exchange(port: Int, _ text: String, wait seconds: Int? = nil) throws -> String
  {
    let connection = try connected(port: port)
    defer { connection.close() }
    connection.send(text)
    let received = connection.receiveAll(timeout: seconds.map(Double.init))
    return String(decoding: received, as: UTF8.self)
  }

  /// A loopback connection part-way through a request, once `server` counts `count`
  /// connections open of which `busy` (all, by default) are busy.
  public static func busy(port: Int, on server: HTTPServer, count: Int, busy: Int? = nil) throws
    -> LoopbackConnection
  {
    let connection = try connected(port: port)
    connection.send("GET / HTTP/1.1\r\n")
    try wait(for: server, open: count, busy: busy ?? count)
    return connection
  }

  /// Waits up to 10 s for `server` to count `open` connections of which `busy` are busy.
  public static func wait(for server: HTTPServer, open: Int, busy: Int) throws {
    for _ in 0..<1_000 where server.openConnections != (open, busy) { usleep(10_000) }
    guard server.openConnections == (open, busy) else { throw Failure() }
  }

  /// Sends `text` on an open connection and reads one answer (up to 5 s).
  public static func answer(on connection: LoopbackConnection, to text: String) throws -> String {
    connection.send(text)
    guard case .bytes(let bytes) = connection.receive(timeout: 5) else { throw Failure() }
    return String(decoding: bytes, as: UTF8.self)
  }

  /// Whether the server closed `connection` (waiting up to 2 s for it to).
  public static func closedByPeer(_ connection: LoopbackConnection) -> Bool {
    connection.isClosedByPeer(within: 2)
  }

  /// A connected loopback connection.
  public static func connected(port: Int) throws -> LoopbackConnection {
    do { return try LoopbackConnection(port: port) } catch { throw Failure() }
  }
}
