import Foundation

/// One parsed HTTP/1.1 request.
public struct HTTPRequest: Hashable, Sendable {
  /// e.g. `PUT`.
  public var method: String
  /// The request target as sent, e.g. `/inApps/v2/transactions/consumption/1?x=y`.
  public var target: String
  /// `HTTP/1.1` or `HTTP/1.0`.
  public var version: String
  /// Header fields in order, names as sent.
  public var headers: [(name: String, value: String)]
  /// The body (Content-Length bytes).
  public var body: Data
  /// Who sent it, `address:port` as the connection's peer (a proxy in front is the peer), when
  /// the server knows it.
  public var client: String?

  /// Creates a request.
  public init(
    method: String, target: String, version: String = "HTTP/1.1",
    headers: [(name: String, value: String)] = [], body: Data = Data()
  ) {
    self.method = method
    self.target = target
    self.version = version
    self.headers = headers
    self.body = body
  }

  /// The target without its query.
  public var path: String { String(target.prefix { $0 != "?" }) }

  /// The first value of a header, by case-insensitive name.
  public func header(_ name: String) -> String? {
    headers.first { Self.sameName($0.name, name) }?.value
  }

  /// Whether two header names are equal ignoring case: byte by byte when both are ASCII (every
  /// real header name), through Foundation's comparison otherwise, which costs far more.
  static func sameName(_ one: String, _ other: String) -> Bool {
    guard one.utf8.allSatisfy({ $0 < 0x80 }), other.utf8.allSatisfy({ $0 < 0x80 }) else {
      return one.caseInsensitiveCompare(other) == .orderedSame
    }
    return one.utf8.elementsEqual(other.utf8) { asciiLowercased($0) == asciiLowercased($1) }
  }

  private static func asciiLowercased(_ byte: UInt8) -> UInt8 {
    byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte + 32 : byte
  }

  /// Whether the connection stays open after the response (HTTP/1.1 unless `Connection: close`).
  /// `Connection` is a list, maybe over several fields (RFC 9110 §7.6.1): `close` anywhere in
  /// it closes, whatever else it names.
  public var keepAlive: Bool {
    let options = headers.lazy.filter { Self.sameName($0.name, "Connection") }
      .flatMap { $0.value.split(separator: ",") }
      .map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
    if options.contains("close") { return false }
    return version == "HTTP/1.1" || options.contains("keep-alive")
  }

  /// Equal when method, target, version, headers and body are.
  public static func == (lhs: HTTPRequest, rhs: HTTPRequest) -> Bool {
    lhs.method == rhs.method && lhs.target == rhs.target && lhs.version == rhs.version
      && lhs.body == rhs.body
      && lhs.headers.map(\.name) == rhs.headers.map(\.name)
      && lhs.headers.map(\.value) == rhs.headers.map(\.value)
  }

  /// Hashes the request line and body.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(method)
    hasher.combine(target)
    hasher.combine(body)
  }
}
