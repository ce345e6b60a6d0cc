#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A blocking TCP connection to a server on 127.0.0.1 that sends and receives raw bytes: what
/// tests and benchmarks use to speak HTTP byte by byte, half a request, or not HTTP at all,
/// which no HTTP client would. Closed by `close()` or when released.
public final class LoopbackConnection {
  /// The connection could not be made.
  public struct Refused: Error, CustomStringConvertible {
    /// The port that refused it.
    public let port: Int
    /// The system's reason.
    public let errno: Int32

    /// `cannot connect to 127.0.0.1:PORT (errno N)`.
    public var description: String { "cannot connect to 127.0.0.1:\(port) (errno \(errno))" }
  }

  /// What a `receive` got.
  public enum Received: Hashable, Sendable {
    /// Bytes the server sent.
    case bytes([UInt8])
    /// The server closed the connection (or reset it, closing with bytes unread).
    case closed
    /// Nothing came within the time allowed, or the read failed.
    case nothing
  }

  private var descriptor: Int32

  /// Connects to `port` on 127.0.0.1; with `noDelay`, each send goes out at once rather than
  /// waiting to be joined with the next (Nagle's algorithm), as a benchmark's requests must.
  /// With `source` (another loopback address, such as 127.0.0.2: all of 127.0.0.0/8 is loopback
  /// on Linux), the server sees the connection come from there, as from a second client.
  public init(port: Int, noDelay: Bool = false, from source: String? = nil) throws(Refused) {
    #if canImport(Glibc)
      let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    #else
      let descriptor = socket(AF_INET, SOCK_STREAM, 0)
    #endif
    guard descriptor >= 0 else { throw Refused(port: port, errno: errno) }
    POSIXCalls.noSignalOnWrite(descriptor)
    if let source, !Self.bind(descriptor, to: source) {
      let code = errno
      Socket.close(descriptor)
      throw Refused(port: port, errno: code)
    }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = in_port_t(UInt16(port).bigEndian)
    inet_pton(AF_INET, "127.0.0.1", &address.sin_addr)
    let connected = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard connected == 0 else {
      let code = errno
      Socket.close(descriptor)
      throw Refused(port: port, errno: code)
    }
    if noDelay {
      var one: Int32 = 1
      setsockopt(
        descriptor, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
    }
    self.descriptor = descriptor
  }

  deinit { close() }

  /// Binds `descriptor` to `host` on a port the system picks; false when it cannot be.
  private static func bind(_ descriptor: Int32, to host: String) -> Bool {
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    guard inet_pton(AF_INET, host, &address.sin_addr) == 1 else { return false }
    return withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        POSIXCalls.bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
      }
    }
  }

  /// Sends all of `bytes`, waiting as long as the server takes; false when it went away.
  @discardableResult
  public func send(_ bytes: [UInt8]) -> Bool {
    var offset = 0
    while offset < bytes.count {
      let written = bytes[offset...].withUnsafeBytes {
        POSIXCalls.send(descriptor, $0.baseAddress, $0.count, POSIXCalls.noSignal)
      }
      if written < 0, errno == EINTR { continue }
      guard written > 0 else { return false }
      offset += written
    }
    return true
  }

  /// Sends `text` as UTF-8.
  @discardableResult
  public func send(_ text: String) -> Bool { send(Array(text.utf8)) }

  /// Receives what the server sent next (up to `maximum` bytes), waiting up to `timeout`
  /// seconds for it: for ever when nil, not at all when 0.
  public func receive(maximum: Int = 4_096, timeout: Double? = nil) -> Received {
    if let timeout, timeout > 0 {
      var interval = timeval(
        tv_sec: Int(timeout), tv_usec: Int((timeout - timeout.rounded(.down)) * 1_000_000))
      setsockopt(
        descriptor, SOL_SOCKET, SO_RCVTIMEO, &interval, socklen_t(MemoryLayout<timeval>.size))
    }
    let flags = timeout == 0 ? Int32(MSG_DONTWAIT) : 0
    var buffer = [UInt8](repeating: 0, count: maximum)
    let count = recv(descriptor, &buffer, buffer.count, flags)
    if count == 0 || (count < 0 && errno == ECONNRESET) { return .closed }
    guard count > 0 else { return .nothing }
    return .bytes(Array(buffer.prefix(count)))
  }

  /// Receives until the server closes the connection or `timeout` seconds pass with nothing
  /// new (for ever when nil); everything received.
  public func receiveAll(timeout: Double? = nil) -> [UInt8] {
    var received: [UInt8] = []
    while case .bytes(let bytes) = receive(timeout: timeout) { received += bytes }
    return received
  }

  /// Whether the server closes the connection within `timeout` seconds, sending nothing more.
  public func isClosedByPeer(within timeout: Double) -> Bool {
    receive(maximum: 1, timeout: timeout) == .closed
  }

  /// Closes the connection; later calls do nothing.
  public func close() {
    guard descriptor >= 0 else { return }
    Socket.close(descriptor)
    descriptor = -1
  }
}
