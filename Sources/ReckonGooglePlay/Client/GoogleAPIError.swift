import Foundation
import ReckonSupport

/// The error body Google's APIs answer with: `{"error": {"code", "message", "status"}}`.
public struct GoogleAPIError: Hashable, Sendable {
  /// The HTTP status, repeated.
  public let code: Int
  /// Google's word for the error (`INVALID_ARGUMENT`, `FAILED_PRECONDITION`).
  public let status: String
  /// What went wrong, in Google's words.
  public let message: String

  /// An error.
  public init(code: Int, status: String, message: String) {
    self.code = code
    self.status = status
    self.message = message
  }

  /// The error in `body`, or nil when it holds none.
  public init?(body: Data) {
    guard let error = (try? JSONValue.parse(body))?.objectValue?["error"]?.objectValue else {
      return nil
    }
    guard case .integer(let code)? = error["code"] else { return nil }
    self.init(
      code: code, status: error["status"]?.stringValue ?? "UNKNOWN",
      message: error["message"]?.stringValue ?? "")
  }

  /// The error as Google writes it.
  public func body() -> Data {
    GooglePlayJSON.encode(
      JSONValue.object([
        "error": .object([
          "code": .integer(code), "status": .string(status), "message": .string(message),
        ])
      ]))
  }
}
