import Foundation

/// An HTTP/1.1 response and its wire form.
public struct HTTPResponse: Sendable {
  /// The status code.
  public var status: Int
  /// Header fields; `Content-Length` and `Connection` are added when written, and `Date` unless
  /// one is given.
  public var headers: [(name: String, value: String)]
  /// The body.
  public var body: Data

  /// Creates a response.
  public init(status: Int, headers: [(name: String, value: String)] = [], body: Data = Data()) {
    self.status = status
    self.headers = headers
    self.body = body
  }

  /// A response with a JSON body.
  public static func json(_ status: Int, _ body: Data) -> HTTPResponse {
    HTTPResponse(status: status, headers: [("Content-Type", "application/json")], body: body)
  }

  /// A response with a plain-text body.
  public static func text(_ status: Int, _ text: String) -> HTTPResponse {
    HTTPResponse(
      status: status, headers: [("Content-Type", "text/plain; charset=utf-8")],
      body: Data(text.utf8))
  }

  /// The bytes to write: status line, headers (with Content-Length, Connection and, unless one
  /// is given, the Date at `now`), and the body unless it answers a HEAD request.
  public func serialized(keepAlive: Bool, headOnly: Bool = false, now: Date = Date()) -> Data {
    var head = "HTTP/1.1 \(status) \(Self.reason(status))\r\n"
    var dated = false
    for (name, value) in headers {
      let lowered = name.lowercased()
      guard lowered != "content-length", lowered != "connection" else { continue }
      dated = dated || lowered == "date"
      head += "\(name): \(value)\r\n"
    }
    if !dated { head += "Date: \(HTTPDate.text(now))\r\n" }
    head +=
      "Content-Length: \(body.count)\r\nConnection: \(keepAlive ? "keep-alive" : "close")\r\n\r\n"
    // A HEAD answer says the length a GET would have, and sends no body: one would be read as
    // the start of the next response on a kept-alive connection.
    return headOnly ? Data(head.utf8) : Data(head.utf8) + body
  }

  /// The standard reason phrase.
  public static func reason(_ status: Int) -> String {
    switch status {
    case 200: "OK"
    case 202: "Accepted"
    case 204: "No Content"
    case 400: "Bad Request"
    case 401: "Unauthorized"
    case 403: "Forbidden"
    case 404: "Not Found"
    case 405: "Method Not Allowed"
    case 408: "Request Timeout"
    case 411: "Length Required"
    case 413: "Content Too Large"
    case 429: "Too Many Requests"
    case 431: "Request Header Fields Too Large"
    case 500: "Internal Server Error"
    case 501: "Not Implemented"
    case 503: "Service Unavailable"
    default: "Status"
    }
  }
}
