/// Why an `HTTPTransport` has no answer.
public enum HTTPTransportError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The transfer failed once under way (timeout, reset, a broken response...), with curl's
  /// message: the server may have received the request.
  case failed(String)
  /// No request reached a server (the host did not resolve, the connection was refused, TLS
  /// did not set up, or the transfer never started), with the reason: a store cannot have
  /// recorded it.
  case notSent(String)
  /// The server's body was longer than the client accepts.
  case responseTooLarge(limit: Int)
  /// The caller's task was cancelled.
  case cancelled

  /// One sentence.
  public var description: String {
    switch self {
    case .failed(let why): why
    case .notSent(let why): why
    case .responseTooLarge(let limit): "the response body exceeds \(limit) bytes"
    case .cancelled: "cancelled"
    }
  }
}
