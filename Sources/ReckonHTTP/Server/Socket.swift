#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Thin POSIX socket calls for the listener and its connections.
enum Socket {
  /// Opens a TCP listener on `host:port` (port 0 picks one) and returns it with the bound port.
  static func listen(host: String, port: Int, backlog: Int32) throws(HTTPServerError) -> (
    descriptor: Int32, port: Int
  ) {
    let (descriptor, bound) = try self.bound(host: host, port: port)
    guard POSIXCalls.listen(descriptor, backlog) == 0 else {
      let code = errno
      close(descriptor)
      throw .socket(call: "bind/listen \(host):\(port)", errno: code)
    }
    return (descriptor, bound)
  }

  /// A TCP socket bound to `host:port` (port 0 picks one) but not listening, with its port:
  /// connecting to it is refused, and no one else can take the port while it is open.
  static func bound(host: String, port: Int) throws(HTTPServerError) -> (
    descriptor: Int32, port: Int
  ) {
    #if canImport(Glibc)
      let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    #else
      let descriptor = socket(AF_INET, SOCK_STREAM, 0)
    #endif
    guard descriptor >= 0 else { throw .socket(call: "socket", errno: errno) }
    var yes: Int32 = 1
    setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = in_port_t(UInt16(port).bigEndian)
    guard inet_pton(AF_INET, host, &address.sin_addr) == 1 else {
      close(descriptor)
      throw .badAddress(host)
    }
    let bound = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard bound == 0 else {
      let code = errno
      close(descriptor)
      throw .socket(call: "bind/listen \(host):\(port)", errno: code)
    }
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    _ = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
    }
    return (descriptor, Int(UInt16(bigEndian: address.sin_port)))
  }

  /// Waits up to `milliseconds` for `descriptor` to be readable.
  static func waitReadable(_ descriptor: Int32, milliseconds: Int32) -> Bool {
    var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
    return poll(&entry, 1, milliseconds) > 0
  }

  /// Accepts one connection, or nil.
  static func accept(_ descriptor: Int32) -> Int32? {
    let client = POSIXCalls.accept(descriptor)
    guard client >= 0 else { return nil }
    POSIXCalls.noSignalOnWrite(client)
    var yes: Int32 = 1
    setsockopt(client, Int32(IPPROTO_TCP), TCP_NODELAY, &yes, socklen_t(MemoryLayout<Int32>.size))
    return client
  }

  /// The connected peer as `address:port` (the server listens on IPv4 only), nil if unknown.
  static func peer(_ descriptor: Int32) -> String? {
    var address = sockaddr_in()
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let found = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        getpeername(descriptor, $0, &length) == 0
      }
    }
    guard found, address.sin_family == sa_family_t(AF_INET) else { return nil }
    var text = [CChar](repeating: 0, count: Int(INET_ADDRSTRLEN))
    guard inet_ntop(AF_INET, &address.sin_addr, &text, socklen_t(text.count)) != nil else {
      return nil
    }
    let host = String(
      decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    return "\(host):\(UInt16(bigEndian: address.sin_port))"
  }

  /// Reads what is available (up to 64 KiB); nil when the peer closed or on an error, empty
  /// when interrupted.
  static func read(_ descriptor: Int32) -> [UInt8]? {
    // Received straight into an uninitialized array sized to what arrived: no zero-filling of
    // 64 KiB and no second copy for every read.
    var count = 0
    let chunk = [UInt8](unsafeUninitializedCapacity: 65_536) { buffer, initialized in
      count = recv(descriptor, buffer.baseAddress, buffer.count, 0)
      initialized = max(0, count)
    }
    if count == 0 { return nil }
    guard count > 0 else { return errno == EINTR || errno == EAGAIN ? [] : nil }
    return chunk
  }

  /// Writes all of `bytes` within `timeout` seconds in all; false if the peer went away or did
  /// not take them in time. A client that stops reading would otherwise hold its connection's
  /// thread (and a connection slot) in `send` for as long as it liked.
  static func write(_ descriptor: Int32, _ bytes: [UInt8], timeout: Double) -> Bool {
    let deadline = ContinuousClock.now.advanced(by: .milliseconds(Int64(timeout * 1_000)))
    var offset = 0
    while offset < bytes.count {
      let written = bytes[offset...].withUnsafeBytes {
        POSIXCalls.send(
          descriptor, $0.baseAddress, $0.count, POSIXCalls.noSignal | Int32(MSG_DONTWAIT))
      }
      if written > 0 {
        offset += written
        continue
      }
      guard written < 0 else { return false }
      if errno == EINTR { continue }
      guard errno == EAGAIN || errno == EWOULDBLOCK else { return false }
      let left = ContinuousClock.now.duration(to: deadline).components
      let milliseconds = left.seconds * 1_000 + left.attoseconds / 1_000_000_000_000_000
      guard milliseconds > 0 else { return false }
      var entry = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
      _ = poll(&entry, 1, Int32(clamping: milliseconds))
    }
    return true
  }

  static func close(_ descriptor: Int32) {
    _ = POSIXCalls.close(descriptor)
  }
}

/// Why the listener could not start.
public enum HTTPServerError: Error, Hashable, Sendable, CustomStringConvertible {
  /// A socket call failed.
  case socket(call: String, errno: Int32)
  /// The host is not an IPv4 address.
  case badAddress(String)

  /// The system's message alone, for messages that already say what was being done.
  public var reason: String {
    switch self {
    case .socket(_, let code): String(cString: strerror(code))
    case .badAddress: description
    }
  }

  /// What failed, with the system's message.
  public var description: String {
    switch self {
    case .socket(let call, let code): "\(call) failed: \(String(cString: strerror(code)))"
    case .badAddress(let host): "'\(host)' is not an IPv4 address such as 127.0.0.1"
    }
  }
}
