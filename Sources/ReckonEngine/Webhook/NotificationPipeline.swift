import Foundation
import ReckonAppStore
import ReckonFacts
import ReckonState
import ReckonSupport

/// The path of one notification: verify ▶ record once ▶ gather facts ▶ decide ▶ validate ▶
/// enqueue. It answers 200 only once the notification is durably recorded, 500 when recording
/// fails and 503 when the state's server cannot be reached (so Apple retries), and 4xx for
/// anything that fails verification, which is never decided on. A request recorded but not
/// decidable now (a fact source failed) is answered 200 and decided later by
/// `retryUndecided()`.
public final class NotificationPipeline: Sendable {
  /// Verifies signatures, chains and app identity.
  public let verifier: NotificationVerifier
  /// The state database.
  public let store: any StateStore
  /// The live policy of each app.
  public let policies: PolicyBook
  /// Gathers facts (with `history.*` from the state database).
  public let gatherer: FactGatherer
  /// How long before the deadline a held reply goes out as decided.
  public let holdRelease: TimeInterval
  /// Google Play's pipeline, which retries the reviews left undecided; nil without Google
  /// Play apps.
  public let googlePlay: GooglePlayPipeline?
  /// The log contexts of recorded requests, for their retries' and sends' lines.
  public let requestLogs: RequestLogBook
  let now: @Sendable () -> Date
  let events: @Sendable (ReckonEvent) -> Void

  /// A pipeline over these parts; `now` is the receive time of each request.
  public init(
    verifier: NotificationVerifier, store: any StateStore, policies: PolicyBook,
    gatherer: FactGatherer, holdReleaseBeforeDeadline: TimeInterval = 3_600,
    googlePlay: GooglePlayPipeline? = nil, requestLogs: RequestLogBook = RequestLogBook(),
    now: @escaping @Sendable () -> Date = { Date() },
    events: @escaping @Sendable (ReckonEvent) -> Void = { _ in }
  ) {
    self.googlePlay = googlePlay
    self.requestLogs = requestLogs
    self.verifier = verifier
    self.store = store
    self.policies = policies
    self.gatherer = gatherer
    self.holdRelease = holdReleaseBeforeDeadline
    self.now = now
    self.events = events
  }

  /// Handles the raw POST body Apple sent (`{"signedPayload": "..."}`) and says what to answer;
  /// `client`, who sent it, goes into the log. Its lines carry `RequestLogContext.current`, or
  /// a new context when there is none.
  public func handle(body: Data, client: String? = nil) async -> WebhookAnswer {
    await RequestLogContext.within {
      var answer = await process(body: body)
      answer.correlationId = RequestLogContext.current?.id
      events(.answered(answer, client: client))
      return answer
    }
  }

  private func process(body: Data) async -> WebhookAnswer {
    let receivedAt = now()
    let verified: VerifiedNotification
    do { verified = try verifier.verifyNamingType(body: body) } catch {
      RequestLogContext.current?.note(
        notificationUUID: error.notificationUUID, transactionId: nil, app: error.bundleId)
      return Self.refusal(error.failure, type: error.notificationType)
    }
    let payload = verified.payload
    let type = payload.rawNotificationType
    guard let uuid = payload.notificationUUID, !uuid.isEmpty, let type else {
      return WebhookAnswer(
        status: 400, type: type, verdict: .refused,
        fields: ["error": "the notification has no notificationUUID or notificationType"])
    }
    if type == NotificationType.consumptionRequest.rawValue,
      verified.transaction?.transactionId == nil
    {
      return WebhookAnswer(
        status: 400, type: type, verdict: .refused,
        fields: ["error": "a CONSUMPTION_REQUEST must carry a signed transaction"])
    }
    let log = RequestLogContext.current
    log?.note(
      notificationUUID: uuid, transactionId: verified.transaction?.transactionId,
      app: verified.app.bundleId)
    let outcome = OutcomeType(notificationType: type, subtype: payload.rawSubtype)
    do {
      // The outcome first (idempotent on the UUID): if recording then fails, Apple's retry
      // finds both steps to do again.
      let transaction = verified.transaction?.transactionId
      let attached = try outcome.flatMap { outcome throws(StateError) in
        try transaction.map { id throws(StateError) in
          try attach(outcome, uuid: uuid, transactionId: id, verified)
        }
      }
      let result = try store.recordNotification(record(verified, uuid: uuid, at: receivedAt, body))
      log?.note(requestId: result.requestId)
      switch result {
      case .duplicate:
        return WebhookAnswer(status: 200, type: type, verdict: .duplicate)
      case .repeated(_, let original):
        return WebhookAnswer(
          status: 200, type: type, verdict: .repeated, fields: ["repeatOf": String(original)])
      case .recorded: break
      }
      guard type == NotificationType.consumptionRequest.rawValue else {
        if outcome != nil, let transaction {
          events(.outcome(type: type, transactionId: transaction, requestId: attached ?? nil))
        }
        return WebhookAnswer(
          status: 200, type: type, verdict: outcome == nil ? .acknowledged : .outcome)
      }
      if let log { requestLogs.keep(log, for: result.requestId) }
      return await decide(verified, requestId: result.requestId, receivedAt: receivedAt)
    } catch {
      return .recordingFailed(type: type, error)
    }
  }

  private func attach(
    _ outcome: OutcomeType, uuid: String, transactionId: String, _ verified: VerifiedNotification
  ) throws(StateError) -> Int64? {
    let transaction = verified.transaction
    let requestId = try store.attachOutcome(
      outcome, notificationUUID: uuid, transactionId: transactionId,
      app: AppStoreApp(bundleId: verified.app.bundleId, environment: verified.app.environment).key,
      originalTransactionId: transaction?.originalTransactionId,
      appAccountToken: transaction?.appAccountToken.map { UUIDText.text($0) },
      occurredAt: transaction?.revocationDate ?? verified.payload.signedDate ?? now())
    if let revocation = transaction?.revocation(for: outcome) {
      try store.recordRevocation(
        notificationUUID: uuid, type: revocation.type, percentage: revocation.percentage)
    }
    return requestId
  }

  private func record(
    _ verified: VerifiedNotification, uuid: String, at receivedAt: Date, _ body: Data
  ) -> NotificationRecord {
    let transaction = verified.transaction
    return NotificationRecord(
      notificationUUID: uuid, notificationType: verified.payload.rawNotificationType ?? "",
      transactionId: transaction?.transactionId,
      originalTransactionId: transaction?.originalTransactionId,
      appAccountToken: transaction?.appAccountToken.map { UUIDText.text($0) },
      bundleId: verified.app.bundleId,
      environment: verified.app.environment.rawValue, receivedAt: receivedAt,
      signedDate: verified.payload.signedDate, rawNotification: body,
      summary: .appStore(verified.payload, transaction: transaction))
  }

  /// The answer to a refused notification; `type` when the payload was verified before the
  /// refusal (another app's notification is not "unreadable" in logs and metrics).
  static func refusal(_ failure: VerificationFailure, type: String? = nil) -> WebhookAnswer {
    let status: Int
    switch failure {
    case .malformed, .invalidCertificateList, .unsupportedAlgorithm, .noApp: status = 400
    default: status = 403
    }
    // However a reason comes to quote what a sender wrote, answer and log stay short.
    let reason = failure.description
    return WebhookAnswer(
      status: status, type: type, verdict: .refused,
      fields: ["error": QuotedText.cut(reason, to: 500)])
  }
}
