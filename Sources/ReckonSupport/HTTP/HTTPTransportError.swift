/// Why an `HTTPTransport` has no answer.
public enum HTTPTransportError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The transfer failed (connect, TLS, timeout, reset...), with curl's message.
  case failed(String)
  /// The server's body was longer than the client accepts.
  case responseTooLarge(limit: Int)
  /// The caller's task was cancelled.
  case cancelled

  /// One sentence.
  public var description: String {
    switch self {
    case .failed(let why): why
    case .responseTooLarge(let limit): "the response body exceeds \(limit) bytes"
    case .cancelled: "cancelled"
    }
  }
}
