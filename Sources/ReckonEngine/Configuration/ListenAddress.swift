#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Reads `HOST:PORT` for `server.listen` and `reckon serve --listen`, so both refuse the same
/// mistakes at start-up, naming where the address came from, rather than when binding.
public enum ListenAddress {
  /// What is wrong with an address.
  public enum Problem: Error, Hashable, Sendable, CustomStringConvertible {
    case notHostAndPort
    case portOutOfRange(String)
    case notIPv4(host: String)

    /// What is wrong, for a message that names the key or option.
    public var description: String {
      switch self {
      case .notHostAndPort: "must be HOST:PORT, e.g. 127.0.0.1:8080"
      case .portOutOfRange(let port):
        "port \(port) is out of range: use 1-65535 (0 lets the system pick)"
      case .notIPv4(let host): "'\(host)' is not an IPv4 address such as 127.0.0.1 or 0.0.0.0"
      }
    }
  }

  /// The host and port of `text`; port 0 lets the system pick one.
  public static func parse(_ text: String) throws(Problem) -> (host: String, port: Int) {
    guard let colon = text.lastIndex(of: ":"), let port = Int(text[text.index(after: colon)...])
    else { throw .notHostAndPort }
    guard (0...65_535).contains(port) else { throw .portOutOfRange(String(port)) }
    let host = String(text[..<colon])
    // The listener binds IPv4 only; a name such as 'localhost' would fail only when binding.
    var address = in_addr()
    guard inet_pton(AF_INET, host, &address) == 1 else { throw .notIPv4(host: host) }
    return (host, port)
  }
}
