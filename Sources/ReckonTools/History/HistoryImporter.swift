import Foundation
import ReckonAppStore
import ReckonEngine
import ReckonState

/// Fills the state database from Apple's Get Notification History, so a new install can dry-run
/// and report at once: CONSUMPTION_REQUESTs first, then REFUND, REFUND_DECLINED and
/// REFUND_REVERSED attached to them. Every payload is verified; everything is idempotent on
/// notificationUUID, so running it again stores nothing twice.
public struct HistoryImporter: Sendable {
  /// What an import did.
  public struct Summary: Hashable, Sendable {
    /// Notifications Apple returned.
    public var fetched = 0
    /// CONSUMPTION_REQUESTs stored now.
    public var requests = 0
    /// Outcomes stored now.
    public var outcomes = 0
    /// Notifications already stored.
    public var duplicates = 0
    /// Payloads that failed verification, with why (not stored).
    public var unverified: [String] = []
    /// Pages fetched.
    public var pages = 0
  }

  /// How far back Apple keeps history.
  public static let maximumAge = NotificationHistoryClient.maximumAge
  /// The longest window asked for at once.
  public static let window: TimeInterval = 30 * 86_400
  /// The types imported, in order.
  public static let types = ["CONSUMPTION_REQUEST", "REFUND", "REFUND_DECLINED", "REFUND_REVERSED"]

  let client: NotificationHistoryClient
  let verifier: NotificationVerifier
  let store: any StateStore

  /// An importer fetching through `client`, verifying with `verifier`, storing in `store`.
  public init(
    client: NotificationHistoryClient, verifier: NotificationVerifier, store: any StateStore
  ) {
    self.client = client
    self.verifier = verifier
    self.store = store
  }

  /// The earliest start Apple accepts at `now` in `environment` (180 days back, 30 in the
  /// sandbox, less a minute for the trip).
  public static func earliestStart(now: Date, environment: AppStoreEnvironment = .production)
    -> Date
  {
    NotificationHistoryClient.earliestStart(now: now, environment: environment)
  }

  /// What to tell the user when `since` is further back than Apple keeps history in
  /// `environment`; nil otherwise.
  public static func startNote(
    since: Date, now: Date, environment: AppStoreEnvironment = .production
  ) -> String? {
    let earliest = earliestStart(now: now, environment: environment)
    guard since < earliest else { return nil }
    let days = Int(NotificationHistoryClient.maximumAge(in: environment) / 86_400)
    let kept = environment == .sandbox ? "the sandbox keeps \(days)" : "Apple keeps \(days)"
    return
      "--since \(since.formatted(.iso8601)) is more than \(days) days ago; \(kept) days of history, so the import starts at \(earliest.formatted(.iso8601))"
  }

  /// The windows Apple accepts for `since..<until` at `now`: no earlier than 180 days back, no
  /// later than now, at most 30 days each. They are planned once, at the start of a run; as the
  /// run goes on, the client moves each request's start up to what Apple accepts at that moment.
  public static func windows(
    since: Date, until: Date?, now: Date, environment: AppStoreEnvironment = .production
  ) -> [Range<Date>] {
    let start = max(since, earliestStart(now: now, environment: environment))
    let end = min(until ?? now, now)
    var windows: [Range<Date>] = []
    var lower = start
    while lower < end {
      let upper = min(end, lower.addingTimeInterval(window))
      windows.append(lower..<upper)
      lower = upper
    }
    return windows
  }

  /// Imports everything from `since` to `until` (default now). The types are asked for one after
  /// another, each perhaps minutes after `now`; every request's start is reckoned afresh by the
  /// client's clock (`NotificationHistoryClient.now`), so a later one is not refused as older than
  /// 180 days.
  public func run(since: Date, until: Date?, now: Date = Date()) async throws -> Summary {
    var summary = Summary()
    for type in Self.types {
      for window in Self.windows(
        since: since, until: until, now: now, environment: client.environment)
      {
        var token: String?
        repeat {
          let page = try await client.page(
            .init(startDate: window.lowerBound, endDate: window.upperBound, notificationType: type),
            paginationToken: token)
          summary.pages += 1
          for item in page.notificationHistory ?? [] {
            guard let signed = item.signedPayload else { continue }
            summary.fetched += 1
            try store(signed, &summary)
          }
          let next = page.hasMore == true ? page.paginationToken : nil
          if let next, next == token {
            throw NotificationHistoryError.malformed("Apple repeated the pagination token \(next)")
          }
          token = next
        } while token != nil
      }
    }
    return summary
  }

  private func store(_ signed: String, _ summary: inout Summary) throws {
    let verified: VerifiedNotification
    do { verified = try verifier.verify(signedPayload: signed) } catch {
      summary.unverified.append(error.description)
      return
    }
    let payload = verified.payload
    guard let uuid = payload.notificationUUID, let transaction = verified.transaction,
      let signedDate = payload.signedDate
    else { return }
    if try store.hasNotification(uuid: uuid) {
      summary.duplicates += 1
      return
    }
    switch payload.notificationType {
    case .consumptionRequest?:
      let body = try JSONEncoder().encode(["signedPayload": signed])
      _ = try store.recordNotification(
        NotificationRecord(
          notificationUUID: uuid, notificationType: "CONSUMPTION_REQUEST",
          transactionId: transaction.transactionId,
          originalTransactionId: transaction.originalTransactionId,
          appAccountToken: transaction.appAccountToken?.uuidString, bundleId: verified.app.bundleId,
          environment: verified.app.environment.rawValue, receivedAt: signedDate,
          signedDate: signedDate,
          rawNotification: body,
          imported: true, summary: .appStore(payload, transaction: transaction)))
      summary.requests += 1
    default:
      guard
        let type = OutcomeType(
          notificationType: payload.rawNotificationType, subtype: payload.rawSubtype),
        let transactionId = transaction.transactionId
      else { return }
      try store.attachOutcome(
        type, notificationUUID: uuid, transactionId: transactionId,
        app: AppStoreApp(bundleId: verified.app.bundleId, environment: verified.app.environment)
          .key,
        originalTransactionId: transaction.originalTransactionId,
        appAccountToken: transaction.appAccountToken?.uuidString, occurredAt: signedDate)
      if let revocation = transaction.revocation(for: type) {
        try store.recordRevocation(
          notificationUUID: uuid, type: revocation.type, percentage: revocation.percentage)
      }
      summary.outcomes += 1
    }
  }
}
