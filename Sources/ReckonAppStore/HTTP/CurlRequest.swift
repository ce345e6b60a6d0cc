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

  /// A request.
  package init(
    method: String, url: URL, headers: [(name: String, value: String)] = [], body: Data? = nil
  ) {
    self.method = method
    self.url = url
    self.headers = headers
    self.body = body
  }
}
