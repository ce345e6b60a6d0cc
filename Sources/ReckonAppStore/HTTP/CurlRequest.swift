import Foundation

/// One HTTP request for `CurlHTTPClient`.
package struct CurlRequest: Sendable {
  /// `GET`, `PUT`, `POST`, ...
  package var method: String
  /// An http or https URL; any other scheme is refused.
  package var url: URL
  /// Header fields, sent in this order.
  package var headers: [(name: String, value: String)]
  /// The body, sent with a `Content-Length`.
  package var body: Data?
  /// When the transfer must be over, if sooner than the client's timeout: a reply due by a
  /// deadline is not left in flight after it.
  package var deadline: Date?

  /// A request.
  package init(
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
