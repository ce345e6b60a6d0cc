/// Why bytes are not an acceptable HTTP/1.1 request, with the status to answer.
public enum HTTPParseError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The request line is not `METHOD TARGET HTTP/1.x`.
  case badRequestLine(String)
  /// A header line is malformed.
  case badHeader(String)
  /// Content-Length is not a number, or several disagree.
  case badContentLength(String)
  /// The headers are larger than the limit, or too many.
  case headersTooLarge(String)
  /// The body is larger than the limit.
  case bodyTooLarge(limit: Int)
  /// A body framing the server does not support (chunked).
  case lengthRequired(String)

  /// The status to answer: 400, 411, 413 or 431.
  public var status: Int {
    switch self {
    case .badRequestLine, .badHeader, .badContentLength: 400
    case .lengthRequired: 411
    case .bodyTooLarge: 413
    case .headersTooLarge: 431
    }
  }

  /// What is wrong, for the response body.
  public var description: String {
    switch self {
    case .badRequestLine(let detail): "malformed request line: \(detail)"
    case .badHeader(let detail): "malformed header: \(detail)"
    case .badContentLength(let detail): "bad Content-Length: \(detail)"
    case .headersTooLarge(let detail): "request headers too large: \(detail)"
    case .bodyTooLarge(let limit): "request body larger than \(limit) bytes"
    case .lengthRequired(let detail): "\(detail); send a Content-Length body"
    }
  }
}
