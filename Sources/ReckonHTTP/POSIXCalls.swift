#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The C library's socket calls by their module, on Linux and macOS alike: the types that make
/// them have methods of the same names (`send`, `close`), which would hide the bare ones.
enum POSIXCalls {
  /// `send(2)`'s flag that keeps a peer gone from raising SIGPIPE; macOS has none, and sockets
  /// there get `SO_NOSIGPIPE` instead (`noSignalOnWrite`).
  #if canImport(Glibc)
    static let noSignal = Int32(MSG_NOSIGNAL)
  #else
    static let noSignal: Int32 = 0
  #endif

  /// Keeps writes to `descriptor` from raising SIGPIPE where `send(2)` has no flag for it.
  static func noSignalOnWrite(_ descriptor: Int32) {
    #if canImport(Darwin)
      var yes: Int32 = 1
      setsockopt(descriptor, SOL_SOCKET, SO_NOSIGPIPE, &yes, socklen_t(MemoryLayout<Int32>.size))
    #endif
  }

  static func listen(_ descriptor: Int32, _ backlog: Int32) -> Int32 {
    #if canImport(Glibc)
      Glibc.listen(descriptor, backlog)
    #else
      Darwin.listen(descriptor, backlog)
    #endif
  }

  static func accept(_ descriptor: Int32) -> Int32 {
    #if canImport(Glibc)
      Glibc.accept(descriptor, nil, nil)
    #else
      Darwin.accept(descriptor, nil, nil)
    #endif
  }

  static func close(_ descriptor: Int32) -> Int32 {
    #if canImport(Glibc)
      Glibc.close(descriptor)
    #else
      Darwin.close(descriptor)
    #endif
  }

  static func bind(
    _ descriptor: Int32, _ address: UnsafePointer<sockaddr>, _ length: socklen_t
  ) -> Int32 {
    #if canImport(Glibc)
      Glibc.bind(descriptor, address, length)
    #else
      Darwin.bind(descriptor, address, length)
    #endif
  }

  static func send(
    _ descriptor: Int32, _ bytes: UnsafeRawPointer?, _ count: Int, _ flags: Int32
  ) -> Int {
    #if canImport(Glibc)
      Glibc.send(descriptor, bytes, count, flags)
    #else
      Darwin.send(descriptor, bytes, count, flags)
    #endif
  }
}
