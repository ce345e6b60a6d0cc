import Foundation

/// Delivers validated consumption bodies to the App Store: the seam an embedder replaces to use
/// their own HTTP stack or proxy, like swift-log's `LogHandler`.
///
/// Contract: `send` never throws — every failure is a `ConsumptionDelivery` value; it may be
/// called concurrently; it sends `body.data` byte for byte and retries nothing itself (retries,
/// pacing and when to start a send belong to the caller's outbox).
public protocol ConsumptionSender: Sendable {
  /// Sends one body for `transactionId` of `app` and reports what happened.
  func send(_ body: ValidatedConsumptionBody, transactionId: String, app: AppStoreApp) async
    -> ConsumptionDelivery

  /// Sends as `send(_:transactionId:app:)` does, giving the request up (a network error) if it
  /// is not over by `deadline`, so no reply is in flight after Apple's deadline. By default,
  /// for senders written before it, the deadline is not passed on.
  func send(
    _ body: ValidatedConsumptionBody, transactionId: String, app: AppStoreApp, before deadline: Date
  ) async -> ConsumptionDelivery
}

extension ConsumptionSender {
  /// Sends without passing the deadline on, for senders that do not implement it.
  public func send(
    _ body: ValidatedConsumptionBody, transactionId: String, app: AppStoreApp, before deadline: Date
  ) async -> ConsumptionDelivery {
    await send(body, transactionId: transactionId, app: app)
  }
}

/// An app as the App Store Server API sees it: a bundle in an environment.
public struct AppStoreApp: Hashable, Sendable, CustomStringConvertible {
  /// The bundle ID, sent as the JWT `bid` claim.
  public var bundleId: String
  /// Production or Sandbox; chooses the host.
  public var environment: AppStoreEnvironment

  /// Creates an app.
  public init(bundleId: String, environment: AppStoreEnvironment) {
    self.bundleId = bundleId
    self.environment = environment
  }

  /// `bundleId (Environment)`.
  public var description: String { "\(bundleId) (\(environment.rawValue))" }
}

/// What became of one send.
public enum ConsumptionDelivery: Hashable, Sendable {
  /// Apple answered with an HTTP status (202 means accepted).
  case answered(ConsumptionAnswer)
  /// No HTTP answer: connection refused, reset, timed out.
  case networkError(String)
  /// No request was made because no token could be signed (a credentials problem).
  case notSigned(String)
}

/// An HTTP answer from the consumption endpoint.
public struct ConsumptionAnswer: Hashable, Sendable {
  /// The HTTP status.
  public var status: Int
  /// Apple's `{errorCode, errorMessage}` body, when the answer had one.
  public var error: AppStoreAPIErrorBody?
  /// When a 429 says to try again (`Retry-After`, a UNIX time in milliseconds).
  public var retryAfter: Date?

  /// Creates an answer.
  public init(status: Int, error: AppStoreAPIErrorBody? = nil, retryAfter: Date? = nil) {
    self.status = status
    self.error = error
    self.retryAfter = retryAfter
  }

  /// Reads `Retry-After`: Apple sends a UNIX time in milliseconds; a value too small for that is
  /// read as seconds since 1970, and a small one as a delay in seconds (RFC 9110), from `now`.
  public static func retryAfter(header: String?, now: Date) -> Date? {
    guard let header, let value = Double(header.trimmingCharacters(in: .whitespaces)), value >= 0
    else { return nil }
    if value >= 1e12 { return Date(timeIntervalSince1970: value / 1_000) }
    if value >= 1e9 { return Date(timeIntervalSince1970: value) }
    return now.addingTimeInterval(value)
  }
}
