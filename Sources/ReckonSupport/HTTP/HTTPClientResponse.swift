import Foundation

/// A complete HTTP answer from an `HTTPTransport`.
public struct HTTPClientResponse: Sendable {
  /// The status code.
  public var status: Int
  /// Header fields of the final response, by lowercased name (a repeated field keeps its last value).
  public var headers: [String: String]
  /// The body, at most the client's cap.
  public var body: Data

  /// A response; `headers` may name fields in any case, and are kept by lowercased name.
  public init(status: Int, headers: [String: String] = [:], body: Data = Data()) {
    self.status = status
    self.headers = Dictionary(
      headers.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { _, last in last })
    self.body = body
  }

  /// The value of the header field `name`, in any case.
  public func header(_ name: String) -> String? {
    let lowered = name.lowercased()
    // `headers` is settable, so a field set after `init` may be in another case.
    return headers[lowered] ?? headers.first { $0.key.lowercased() == lowered }?.value
  }
}
