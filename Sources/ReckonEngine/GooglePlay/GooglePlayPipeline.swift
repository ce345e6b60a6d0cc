import Foundation
import ReckonFacts
import ReckonGooglePlay
import ReckonState
import ReckonSupport

/// The path of one Google Play push: verify the push token ▶ read the notification ▶ record
/// once (by Pub/Sub's message id) ▶ a voided purchase becomes its review's outcome; a review is
/// gathered, decided, validated against Google's rules and enqueued. It answers 2xx (which
/// acknowledges the message to Pub/Sub) only once the notification is durably recorded; 500 or
/// 503 when recording fails (Pub/Sub delivers it again); 401/403 for a push that does not
/// verify and 400 for one that cannot be read, neither of which is ever decided on.
public final class GooglePlayPipeline: Sendable {
  /// Checks each push's OIDC token.
  public let verifier: PushTokenVerifier
  /// The package names reviews are taken for.
  public let packages: Set<String>
  /// The state database.
  public let store: any StateStore
  /// The live policy of each app (Google Play apps under the `GooglePlay` environment).
  public let policies: PolicyBook
  /// Gathers facts over Google Play's schema.
  public let gatherer: FactGatherer
  /// How long before the deadline a held answer goes out as decided.
  public let holdRelease: TimeInterval
  /// The log contexts of recorded reviews, for their retries' and sends' lines.
  public let requestLogs: RequestLogBook
  let now: @Sendable () -> Date
  let events: @Sendable (ReckonEvent) -> Void

  /// A pipeline over these parts; `now` is the receive time of each push.
  public init(
    verifier: PushTokenVerifier, packages: Set<String>, store: any StateStore,
    policies: PolicyBook, gatherer: FactGatherer, holdReleaseBeforeDeadline: TimeInterval = 3_600,
    requestLogs: RequestLogBook = RequestLogBook(),
    now: @escaping @Sendable () -> Date = { Date() },
    events: @escaping @Sendable (ReckonEvent) -> Void = { _ in }
  ) {
    self.verifier = verifier
    self.requestLogs = requestLogs
    self.packages = packages
    self.store = store
    self.policies = policies
    self.gatherer = gatherer
    self.holdRelease = holdReleaseBeforeDeadline
    self.now = now
    self.events = events
  }

  /// Handles one push: its body and its `Authorization` header; `client`, who sent it, goes
  /// into the log. Its lines carry `RequestLogContext.current`, or a new context when there is
  /// none, with the message id, order id and package name in the fields Apple's ids fill.
  public func handle(body: Data, authorization: String?, client: String? = nil) async
    -> WebhookAnswer
  {
    await RequestLogContext.within {
      var answer = await process(body: body, authorization: authorization)
      answer.correlationId = RequestLogContext.current?.id
      events(.answered(answer, client: client))
      return answer
    }
  }

  private func process(body: Data, authorization: String?) async -> WebhookAnswer {
    let receivedAt = now()
    do {
      _ = try await verifier.verify(authorization: authorization, now: receivedAt)
    } catch {
      // Keys this side cannot load refuse no push for good: 503, so Pub/Sub delivers it again.
      let status: Int
      switch error {
      case .noToken: status = 401
      case .keysUnavailable: status = 503
      default: status = 403
      }
      return WebhookAnswer(
        status: status, type: nil, verdict: .refused, fields: ["error": error.description])
    }
    let push: PubSubPush
    let notification: DeveloperNotification
    do {
      push = try PubSubPush(body: body)
      notification = try DeveloperNotification(data: push.data)
    } catch {
      return WebhookAnswer(
        status: 400, type: nil, verdict: .refused,
        fields: ["error": QuotedText.cut(error.description, to: 500)])
    }
    let type = GooglePlayStore.notificationType(of: notification.kind)
    guard packages.contains(notification.packageName) else {
      return WebhookAnswer(
        status: 403, type: type, verdict: .refused,
        fields: [
          "error":
            "the notification is for package \(QuotedText.cut(notification.packageName, to: 200)), which is not configured"
        ])
    }
    let uuid = "google:" + push.messageId
    let app = AppKey(bundleId: notification.packageName, environment: GooglePlayStore.environment)
    let log = RequestLogContext.current
    log?.note(
      notificationUUID: push.messageId, transactionId: Self.orderId(of: notification),
      app: notification.packageName)
    do {
      // The outcome first (idempotent on the message id): if recording then fails, the
      // redelivery finds both steps to do again.
      var attached: Int64?
      if case .voidedPurchase(let voided) = notification.kind {
        attached = try attach(voided, uuid: uuid, app: app, at: notification.eventTime)
      }
      let result = try store.recordNotification(
        record(notification, push: push, uuid: uuid, type: type, receivedAt: receivedAt))
      log?.note(requestId: result.requestId)
      switch result {
      case .duplicate: return WebhookAnswer(status: 200, type: type, verdict: .duplicate)
      case .repeated(_, let original):
        return WebhookAnswer(
          status: 200, type: type, verdict: .repeated, fields: ["repeatOf": String(original)])
      case .recorded: break
      }
      switch notification.kind {
      case .pendingRefundReview:
        guard let request = GooglePlayReviewRequest(notification, receivedAt: receivedAt) else {
          return WebhookAnswer(status: 200, type: type, verdict: .acknowledged)
        }
        if let log { requestLogs.keep(log, for: result.requestId) }
        return await decide(request, requestId: result.requestId, type: type)
      case .voidedPurchase(let voided):
        events(.outcome(type: type, transactionId: voided.orderId, requestId: attached))
        return WebhookAnswer(status: 200, type: type, verdict: .outcome)
      default:
        return WebhookAnswer(status: 200, type: type, verdict: .acknowledged)
      }
    } catch {
      return .recordingFailed(type: type, error)
    }
  }

  /// Records a voided purchase as the outcome of its order's review: a refund, full or of part
  /// of the quantity.
  private func attach(
    _ voided: VoidedPurchaseNotification, uuid: String, app: AppKey, at date: Date
  )
    throws(StateError) -> Int64?
  {
    let requestId = try store.attachOutcome(
      .refund, notificationUUID: uuid, transactionId: voided.orderId, app: app,
      originalTransactionId: voided.purchaseToken, appAccountToken: nil, occurredAt: date)
    let type: String =
      switch voided.refundType {
      case .fullRefund: "REFUND_FULL"
      case .quantityBasedPartialRefund: "REFUND_QUANTITY_PARTIAL"
      case .unrecognized(let number): "REFUND_TYPE_\(number)"
      }
    try store.recordRevocation(notificationUUID: uuid, type: type, percentage: nil)
    return requestId
  }

  /// The order a notification names, if any.
  static func orderId(of notification: DeveloperNotification) -> String? {
    switch notification.kind {
    case .pendingRefundReview(let review): review.orderId
    case .voidedPurchase(let voided): voided.orderId
    default: nil
    }
  }

  private func record(
    _ notification: DeveloperNotification, push: PubSubPush, uuid: String, type: String,
    receivedAt: Date
  ) -> NotificationRecord {
    var orderId: String?
    var purchaseToken: String?
    var account: String?
    switch notification.kind {
    case .pendingRefundReview(let review):
      orderId = review.orderId
      account = review.obfuscatedAccountId
    case .voidedPurchase(let voided):
      orderId = voided.orderId
      purchaseToken = voided.purchaseToken
    case .oneTimeProduct(_, let token, _), .subscription(_, let token): purchaseToken = token
    case .test: break
    }
    // The data as Google wrote it, already verified: a retry decides it from here, as the push
    // token that vouched for it will have expired.
    return NotificationRecord(
      notificationUUID: uuid, notificationType: type, transactionId: orderId,
      originalTransactionId: purchaseToken, appAccountToken: account,
      bundleId: notification.packageName, environment: GooglePlayStore.environment,
      receivedAt: receivedAt, signedDate: notification.eventTime, rawNotification: push.data,
      summary: .googlePlay(notification))
  }

  /// Decides a recorded review and stores the decision with its outbox entry; whatever
  /// happens here the answer is 2xx, the review being recorded.
  func decide(_ request: GooglePlayReviewRequest, requestId: Int64, type: String) async
    -> WebhookAnswer
  {
    await RecordedRequestDecision.answer(
      requestId: requestId, type: type, store: store, events: events
    ) { await decideClaimed(request, requestId: requestId) }
  }

  /// Decides a review left undecided, from its recorded notification; false when it could not
  /// be decided now (said through `events`), true when it was or another service did.
  func retry(_ undecided: UndecidedRequest) async -> Result<Bool, DeferReason> {
    guard let notification = try? DeveloperNotification(data: undecided.rawNotification),
      let request = GooglePlayReviewRequest(notification, receivedAt: undecided.receivedAt)
    else { return .failure(.unreadable) }
    RequestLogContext.current?.note(
      notificationUUID: nil, transactionId: request.review.orderId, app: request.packageName)
    switch await decideClaimed(request, requestId: undecided.requestId) {
    case .success(let fields):
      return .success(fields[RecordedRequestDecision.decidedElsewhere] == nil)
    case .failure(let reason): return .failure(reason)
    }
  }

  private func decideClaimed(_ request: GooglePlayReviewRequest, requestId: Int64) async
    -> Result<[String: String], DeferReason>
  {
    let app = request.appKey!
    guard let entry = policies.entry(for: app) else { return .failure(.noPolicyFor(app)) }
    RequestLogContext.current?.note(
      policyVersion: entry.policy.checked.version, sha256: entry.textSHA256)
    let facts: GatheredFacts
    switch await gatherer.gather(request, reading: entry.reads) {
    case .ready(let gathered): facts = gathered
    case .retry(let failure): return .failure(.facts(failure))
    }
    let decision = Decider(policy: entry.policy, schema: policies.schema(for: app)).decide(
      request, facts: facts, trace: true)
    let record = DecisionRecord(
      decision: decision, policy: entry.policy, policySHA256: entry.textSHA256)
    let receipt: DecisionReceipt
    do {
      receipt = try store.recordDecision(
        record, requestId: requestId, enqueue: try enqueue(decision, app: app, request: request))
    } catch {
      return .failure(.notStored(error))
    }
    let unrecognized = request.review.refundReason.flatMap { reason -> String? in
      guard case .unrecognized(let number) = reason else { return nil }
      return "unrecognized: refundReason \(number), decided as a missing reason"
    }
    return .success(
      RecordedRequestDecision.stored(
        record, receipt: receipt, requestId: requestId, transactionId: request.review.orderId,
        factProblems: facts.failures.map { "unavailable: \($0)" }
          + facts.refused.map { "refused: \($0)" } + (unrecognized.map { [$0] } ?? []),
        events: events))
  }

  private func enqueue(_ decision: Decision, app: AppKey, request: GooglePlayReviewRequest)
    throws(StateError) -> OutboxEnqueue?
  {
    let holdUntil: Date?
    switch decision.action {
    case .respond: holdUntil = nil
    case .hold:
      // Only the first answer counts: a held one waits for a person until the deadline is near.
      holdUntil = request.deadline.addingTimeInterval(
        -min(holdRelease, GooglePlayStore.replyWindow / 5))
    case .skip: return nil
    }
    guard let body = decision.reply?.json else { return nil }
    return OutboxEnqueue(
      app: app, transactionId: request.review.orderId, body: try CheckedBody(googlePlay: body),
      deadline: request.deadline, holdUntil: holdUntil)
  }
}
