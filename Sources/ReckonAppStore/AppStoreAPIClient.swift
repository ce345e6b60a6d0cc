import Foundation
import ReckonSupport

/// The App Store Server API's Send Consumption Information call over an `HTTPTransport`:
/// `PUT /inApps/v2/transactions/consumption/{transactionId}` with an ES256 bearer token.
public final class AppStoreAPIClient: ConsumptionSender, @unchecked Sendable {
  /// Apple's production host.
  public static let productionURL = URL(string: "https://api.storekit.apple.com")!
  /// Apple's sandbox host.
  public static let sandboxURL = URL(string: "https://api.storekit-sandbox.apple.com")!

  private let issuerId: String
  private let keyId: String
  private let key: PrivateKey
  private let baseURLOverride: URL?
  private let http: any HTTPTransport
  private let tokens: TokenCache

  /// A client signing with `key` and sending through `transport`; `baseURL` replaces Apple's
  /// hosts (for a local stand-in).
  public init(
    issuerId: String, keyId: String, key: PrivateKey, baseURL: URL? = nil,
    transport: any HTTPTransport
  ) {
    self.issuerId = issuerId
    self.keyId = keyId
    self.key = key
    self.baseURLOverride = baseURL
    self.http = transport
    self.tokens = TokenCache()
  }

  /// The base URL requests for `environment` go to.
  public func baseURL(for environment: AppStoreEnvironment) -> URL {
    baseURLOverride ?? (environment == .production ? Self.productionURL : Self.sandboxURL)
  }

  /// The endpoint for one transaction.
  public func consumptionURL(transactionId: String, environment: AppStoreEnvironment) -> URL {
    let escaped =
      transactionId.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? transactionId
    return baseURL(for: environment).appendingPathComponent(
      "inApps/v2/transactions/consumption/\(escaped)")
  }

  /// Signs a token for `app` (cached while it has over a minute to live) and sends the body.
  public func send(_ body: ValidatedConsumptionBody, transactionId: String, app: AppStoreApp) async
    -> ConsumptionDelivery
  {
    await send(body, transactionId: transactionId, app: app, before: .distantFuture)
  }

  /// Sends the body as `send(_:transactionId:app:)` does; the transfer is cut off at `deadline`
  /// if it is sooner than the client's timeout.
  public func send(
    _ body: ValidatedConsumptionBody, transactionId: String, app: AppStoreApp, before deadline: Date
  ) async -> ConsumptionDelivery {
    let token: String
    do {
      token = try tokens.token(for: app.bundleId, now: Date()) {
        (now: Date) throws(SigningError) -> String in
        try makeToken(bundleId: app.bundleId, now: now)
      }
    } catch {
      return .notSigned(error.description)
    }
    let request = HTTPClientRequest(
      method: "PUT",
      url: consumptionURL(transactionId: transactionId, environment: app.environment),
      headers: [("Content-Type", "application/json"), ("Authorization", "Bearer \(token)")],
      body: body.data, deadline: deadline == .distantFuture ? nil : deadline)
    do {
      let response = try await http.perform(request)
      return .answered(
        Self.answer(
          status: response.status, body: response.body,
          retryAfter: response.header("Retry-After")))
    } catch {
      return .networkError(error.description)
    }
  }

  /// A token for `bundleId` issued at `now`, for `reckon keys check`.
  public func makeToken(bundleId: String, now: Date) throws(SigningError) -> String {
    try AppStoreJWT(issuerId: issuerId, keyId: keyId, bundleId: bundleId, key: key).token(now: now)
  }

  static func answer(status: Int, body: Data, retryAfter: String?) -> ConsumptionAnswer {
    let error =
      (200..<300).contains(status)
      ? nil : try? JSONDecoder().decode(AppStoreAPIErrorBody.self, from: body)
    return ConsumptionAnswer(
      status: status, error: error,
      retryAfter: ConsumptionAnswer.retryAfter(header: retryAfter, now: Date()))
  }
}

/// Tokens per bundle, reused while they have more than a minute left.
private final class TokenCache: @unchecked Sendable {
  private let lock = NSLock()
  private var tokens: [String: (token: String, issued: Date)] = [:]

  func token(for bundleId: String, now: Date, make: (Date) throws(SigningError) -> String)
    throws(SigningError) -> String
  {
    lock.lock()
    defer { lock.unlock() }
    if let cached = tokens[bundleId],
      now.timeIntervalSince(cached.issued) < AppStoreJWT.lifetime - 60,
      now >= cached.issued
    {
      return cached.token
    }
    let token = try make(now)
    tokens[bundleId] = (token, now)
    return token
  }
}
