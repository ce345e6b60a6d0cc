import Foundation

/// A complete HTTP answer from `CurlHTTPClient`.
package struct CurlResponse: Sendable {
  /// The status code.
  package var status: Int
  /// Header fields of the final response, by lowercased name (a repeated field keeps its last value).
  package var headers: [String: String]
  /// The body, at most the client's cap.
  package var body: Data

  /// A response.
  package init(status: Int, headers: [String: String] = [:], body: Data = Data()) {
    self.status = status
    self.headers = headers
    self.body = body
  }

  /// The value of the header field `name`, in any case.
  package func header(_ name: String) -> String? { headers[name.lowercased()] }
}
