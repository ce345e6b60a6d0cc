import Foundation

/// One HTTP request for an `HTTPTransport`.
public struct HTTPClientRequest: Sendable {
  /// `GET`, `PUT`, `POST`, ...
  public var method: String
  /// An http or https URL; any other scheme is refused.
  public var url: URL
  /// Header fields, sent in this order.
  public var headers: [(name: String, value: String)]
  /// The body, sent with a `Content-Length`.
  public var body: Data?
  /// When the transfer must be over, if sooner than the client's timeout: a reply due by a
  /// deadline is not left in flight after it.
  public var deadline: Date?

  /// A request.
  public init(
    method: String, url: URL, headers: [(name: String, value: String)] = [], body: Data? = nil,
    deadline: Date? = nil
  ) {
    self.method = method
    self.url = url
    self.headers = headers
    self.body = body
    self.deadline = deadline
  }
}
