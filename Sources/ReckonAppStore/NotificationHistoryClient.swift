import Foundation
import ReckonSupport

/// Apple's Get Notification History: `POST /inApps/v1/notifications/history`, one page at a time,
/// signed with the App Store client's ES256 token.
public final class NotificationHistoryClient: @unchecked Sendable {
  /// One query: a time window (UNIX milliseconds) and, optionally, one notification type.
  public struct Query: Hashable, Sendable {
    /// The window's start.
    public var startDate: Date
    /// The window's end.
    public var endDate: Date
    /// Only this notification type, e.g. `CONSUMPTION_REQUEST`.
    public var notificationType: String?

    /// Creates a query.
    public init(startDate: Date, endDate: Date, notificationType: String? = nil) {
      self.startDate = startDate
      self.endDate = endDate
      self.notificationType = notificationType
    }

    /// The request body Apple expects.
    public func body() -> Data {
      var object: [String: JSONValue] = [
        "startDate": .integer(Int((startDate.timeIntervalSince1970 * 1000).rounded())),
        "endDate": .integer(Int((endDate.timeIntervalSince1970 * 1000).rounded())),
      ]
      if let notificationType { object["notificationType"] = .string(notificationType) }
      let encoder = JSONEncoder()
      encoder.outputFormatting = [.sortedKeys]
      return (try? encoder.encode(JSONValue.object(object))) ?? Data()
    }
  }

  /// One page of history.
  public struct Page: Decodable, Sendable {
    /// The token for the next page.
    public let paginationToken: String?
    /// Whether there are more pages.
    public let hasMore: Bool?
    /// The notifications, each a signed payload with Apple's send attempts.
    public let notificationHistory: [Item]?

    /// One notification of the history.
    public struct Item: Decodable, Sendable {
      /// The notification as Apple signed it.
      public let signedPayload: String?
    }
  }

  /// How far back Apple accepts a startDate in production, reckoned when each request arrives.
  public static let maximumAge: TimeInterval = 180 * 86_400

  /// How far back Apple keeps history in `environment`: 180 days in production, 30 in the
  /// sandbox ("Get Notification History").
  public static func maximumAge(in environment: AppStoreEnvironment) -> TimeInterval {
    environment == .sandbox ? 30 * 86_400 : maximumAge
  }

  /// The environment whose history the client asks for.
  public var environment: AppStoreEnvironment { app.environment }

  private let client: AppStoreAPIClient
  private let app: AppStoreApp
  private let http: any HTTPTransport
  /// How many times one page is asked for (429 and 5xx are asked again) before giving up.
  public var attempts = 6
  /// The longest `Retry-After` waited out; a longer one ends the import, saying until when.
  public var maximumWait: TimeInterval = 300
  /// The clock Apple's 180 days are reckoned by: the wall clock unless a test sets another.
  public var now: @Sendable () -> Date = { Date() }

  /// A history client for `app` using `client`'s key and base URL, asking through `transport`
  /// (pages are fetched one after another: one connection suffices).
  public init(client: AppStoreAPIClient, app: AppStoreApp, transport: any HTTPTransport) {
    self.client = client
    self.app = app
    http = transport
  }

  /// The earliest startDate Apple accepts at `now` in `environment` (180 days back, 30 in the
  /// sandbox, less a minute for the trip).
  public static func earliestStart(now: Date, environment: AppStoreEnvironment = .production)
    -> Date
  {
    now.addingTimeInterval(-maximumAge(in: environment) + 60)
  }

  /// One page of `query`, continuing after `paginationToken`. A 429 waits until Apple's
  /// `Retry-After` (up to `maximumWait`); a 5xx backs off 1, 2, 4 ... seconds; `attempts` in all.
  ///
  /// Apple refuses a startDate more than 180 days (30 in the sandbox) before the request
  /// arrives, and a query may be
  /// asked minutes or hours after it was planned (earlier pages, `Retry-After` waits): each
  /// attempt moves the start up to the earliest Apple accepts at that moment. A window wholly
  /// older than that is an empty page, without asking.
  public func page(_ query: Query, paginationToken: String?) async throws(NotificationHistoryError)
    -> Page
  {
    var attempt = 0
    while true {
      attempt += 1
      var asked = query
      asked.startDate = max(
        query.startDate, Self.earliestStart(now: now(), environment: app.environment))
      guard asked.startDate < asked.endDate else {
        return Page(paginationToken: nil, hasMore: false, notificationHistory: [])
      }
      let (status, data, retryAfter) = try await send(asked, paginationToken: paginationToken)
      if status == 200 {
        do { return try JSONDecoder().decode(Page.self, from: data) } catch {
          throw .malformed("the history page does not decode: \(error)")
        }
      }
      let retryable = status == 429 || status >= 500
      guard retryable, attempt < attempts else {
        throw .answered(
          status: status, error: try? JSONDecoder().decode(AppStoreAPIErrorBody.self, from: data))
      }
      var wait = min(maximumWait, Double(1 << min(attempt - 1, 16)))
      if status == 429, let retryAfter {
        wait = max(0.05, retryAfter.timeIntervalSinceNow)
        guard wait <= maximumWait else { throw .rateLimited(until: retryAfter) }
      }
      try? await Task.sleep(nanoseconds: UInt64(wait * 1e9))
    }
  }

  private func send(_ query: Query, paginationToken: String?) async throws(NotificationHistoryError)
    -> (Int, Data, Date?)
  {
    var components = URLComponents(
      url: client.baseURL(for: app.environment).appendingPathComponent(
        "inApps/v1/notifications/history"),
      resolvingAgainstBaseURL: false)!
    if let paginationToken {
      components.queryItems = [URLQueryItem(name: "paginationToken", value: paginationToken)]
    }
    let token: String
    do { token = try client.makeToken(bundleId: app.bundleId, now: Date()) } catch {
      throw .notSigned(error.description)
    }
    let request = HTTPClientRequest(
      method: "POST", url: components.url!,
      headers: [("Content-Type", "application/json"), ("Authorization", "Bearer \(token)")],
      body: query.body())
    do {
      let response = try await http.perform(request)
      let retryAfter = ConsumptionAnswer.retryAfter(
        header: response.header("Retry-After"), now: Date())
      return (response.status, response.body, retryAfter)
    } catch {
      throw .network(error.description)
    }
  }
}

/// Why a history page could not be had.
public enum NotificationHistoryError: Error, Hashable, Sendable, CustomStringConvertible {
  /// Apple answered with an error status.
  case answered(status: Int, error: AppStoreAPIErrorBody?)
  /// No HTTP answer.
  case network(String)
  /// No token could be signed.
  case notSigned(String)
  /// The answer was not a history page.
  case malformed(String)
  /// Apple asked to wait longer than the client waits (429 with a far `Retry-After`).
  case rateLimited(until: Date)

  /// One sentence.
  public var description: String {
    switch self {
    case .answered(let status, let error):
      "Get Notification History answered \(status)"
        + (error.map { ": \($0.errorCode) \($0.errorMessage)" } ?? "")
    case .network(let why): "Get Notification History failed: \(why)"
    case .notSigned(let why): "no token could be signed: \(why)"
    case .malformed(let why): why
    case .rateLimited(let until):
      "Get Notification History is rate limited until \(until.formatted(.iso8601)); run the import again then"
    }
  }
}
