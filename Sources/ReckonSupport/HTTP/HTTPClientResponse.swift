import Foundation

/// A complete HTTP answer from an `HTTPTransport`.
public struct HTTPClientResponse: Sendable {
  /// The status code.
  public var status: Int
  /// Header fields of the final response, by lowercased name (a repeated field keeps its last value).
  public var headers: [String: String]
  /// The body, at most the client's cap.
  public var body: Data

  /// A response.
  public init(status: Int, headers: [String: String] = [:], body: Data = Data()) {
    self.status = status
    self.headers = headers
    self.body = body
  }

  /// The value of the header field `name`, in any case.
  public func header(_ name: String) -> String? { headers[name.lowercased()] }
}
