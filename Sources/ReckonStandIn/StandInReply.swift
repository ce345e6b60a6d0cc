import Foundation
import ReckonAppStore

/// What the stand-in answers to one request that passed its checks.
public enum StandInReply: Hashable, Sendable {
  /// 202 Accepted.
  case accepted
  /// 400 with Apple's error body.
  case badRequest(errorCode: Int, message: String)
  /// 401 with no body (a bad token).
  case unauthorized
  /// 403.
  case forbidden
  /// 404 TransactionIdNotFoundError.
  case notFound
  /// 429 RateLimitExceededError with `Retry-After` as UNIX milliseconds.
  case rateLimited(retryAfter: Date)
  /// 500 GeneralInternalError.
  case serverError

  /// The HTTP status.
  public var status: Int {
    switch self {
    case .accepted: 202
    case .badRequest: 400
    case .unauthorized: 401
    case .forbidden: 403
    case .notFound: 404
    case .rateLimited: 429
    case .serverError: 500
    }
  }

  var response: (status: Int, headers: [(name: String, value: String)], body: Data) {
    switch self {
    case .accepted, .unauthorized, .forbidden: return (status, [], Data())
    case .badRequest(let code, let message): return (status, [], Self.errorBody(code, message))
    case .notFound: return (status, [], Self.errorBody(4_040_010, "Transaction id not found."))
    case .serverError: return (status, [], Self.errorBody(5_000_000, "An unknown error occurred."))
    case .rateLimited(let date):
      let milliseconds = Int64((date.timeIntervalSince1970 * 1_000).rounded())
      return (
        status, [("Retry-After", String(milliseconds))],
        Self.errorBody(4_290_000, "Rate limit exceeded.")
      )
    }
  }

  private static func errorBody(_ code: Int, _ message: String) -> Data {
    (try? JSONEncoder().encode(AppStoreAPIErrorBody(errorCode: code, errorMessage: message)))
      ?? Data()
  }
}

/// One request the stand-in received, with what it made of it.
public struct StandInRequest: Hashable, Sendable {
  /// The HTTP method.
  public var method: String
  /// The request path.
  public var path: String
  /// Header fields as received.
  public var headers: [String: String]
  /// The body bytes.
  public var body: Data
  /// The transaction id from the path, if the path was the consumption endpoint.
  public var transactionId: String?
  /// Why the token or body was refused, if it was.
  public var problem: String?
  /// The status answered.
  public var status: Int
  /// When it arrived (wall clock).
  public var receivedAt: Date
}
