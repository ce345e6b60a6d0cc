/// Why `CurlHTTPClient` has no answer.
package enum HTTPTransportError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The transfer failed (connect, TLS, timeout, reset...), with curl's message.
  case failed(String)
  /// The server's body was longer than the client accepts.
  case responseTooLarge(limit: Int)
  /// The caller's task was cancelled.
  case cancelled

  /// One sentence.
  package var description: String {
    switch self {
    case .failed(let why): why
    case .responseTooLarge(let limit): "the response body exceeds \(limit) bytes"
    case .cancelled: "cancelled"
    }
  }
}
