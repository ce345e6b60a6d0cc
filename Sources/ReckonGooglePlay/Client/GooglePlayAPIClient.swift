import Foundation
import ReckonSupport

/// The Google Play Developer API's `orders.reviewrefund` over an `HTTPTransport`:
/// `POST /androidpublisher/v3/applications/{packageName}/orders/{orderId}:reviewrefund` with a
/// service account's bearer token.
public final class GooglePlayAPIClient: Sendable {
  /// Google's host for the Developer API.
  public static let productionURL = URL(string: "https://androidpublisher.googleapis.com")!

  private let baseURL: URL
  private let tokens: AccessTokenSource
  private let http: any HTTPTransport

  /// A client taking tokens from `tokens` and sending through `transport`; `baseURL` replaces
  /// Google's host (for a local stand-in).
  public init(
    tokens: AccessTokenSource, baseURL: URL = GooglePlayAPIClient.productionURL,
    transport: any HTTPTransport
  ) {
    self.baseURL = baseURL
    self.tokens = tokens
    self.http = transport
  }

  /// The endpoint for one order's review.
  public func reviewRefundURL(packageName: String, orderId: String) -> URL {
    let allowed = CharacterSet.alphanumerics.union(CharacterSet(charactersIn: "-._"))
    let package = packageName.addingPercentEncoding(withAllowedCharacters: allowed) ?? packageName
    let order = orderId.addingPercentEncoding(withAllowedCharacters: allowed) ?? orderId
    return URL(
      string: baseURL.absoluteString.trimmingSuffix("/")
        + "/androidpublisher/v3/applications/\(package)/orders/\(order):reviewrefund")!
  }

  /// Sends the answer for `orderId` of `packageName`; the transfer is cut off at `deadline`.
  public func send(
    _ body: ValidatedReviewRefund, packageName: String, orderId: String, before deadline: Date?
  ) async -> ReviewRefundDelivery {
    let token: String
    do { token = try await tokens.token(now: Date()) } catch {
      // An endpoint down or busy says nothing of the credentials: nothing went to Google, and
      // the answer is tried again with backoff rather than its app paused.
      switch error {
      case .unreachable, .refused(429, _):
        return .notRecorded(
          reason: "no access token: \(error.description)", status: nil, retryAfterSeconds: nil)
      case .refused(let status, _) where status >= 500:
        return .notRecorded(
          reason: "no access token: \(error.description)", status: nil, retryAfterSeconds: nil)
      default: return .noToken(error.description)
      }
    }
    let request = HTTPClientRequest(
      method: "POST", url: reviewRefundURL(packageName: packageName, orderId: orderId),
      headers: [("Content-Type", "application/json"), ("Authorization", "Bearer \(token)")],
      body: body.data, deadline: deadline)
    let response: HTTPClientResponse
    do {
      response = try await http.perform(request)
    } catch {
      if case .notSent(let why) = error {
        return .notRecorded(reason: why, status: nil, retryAfterSeconds: nil)
      }
      return .uncertain(reason: error.description)
    }
    if response.status == 401 { await tokens.discard() }
    return Self.delivery(
      status: response.status, body: response.body, retryAfter: response.header("Retry-After"))
  }

  /// What an answer from Google means for the review.
  public static func delivery(status: Int, body: Data, retryAfter: String?)
    -> ReviewRefundDelivery
  {
    let error = GoogleAPIError(body: body)
    let reason = "HTTP \(status)" + (error.map { " \($0.status): \($0.message)" } ?? "")
    switch status {
    case 200..<300: return .recorded
    case 401, 403, 429, 503:
      return .notRecorded(
        reason: reason, status: status, retryAfterSeconds: retryAfter.flatMap { Int($0) })
    case 400..<500: return .rejected(status: status, reason: reason)
    default: return .uncertain(reason: reason)
    }
  }
}

extension String {
  fileprivate func trimmingSuffix(_ suffix: String) -> String {
    hasSuffix(suffix) ? String(dropLast(suffix.count)) : self
  }
}
