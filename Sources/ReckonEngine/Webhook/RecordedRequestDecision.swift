import Foundation
import ReckonState

/// What both stores' pipelines do with a request once it is recorded: claim it (another
/// service on the database may be deciding it), decide it while holding the claim, and answer
/// 2xx whatever happens, the request being recorded; and how a stored decision is told to the
/// log and to whoever posted the notification.
enum RecordedRequestDecision {
  /// The answer's field naming the decision another service on the database made first.
  static let decidedElsewhere = "decidedBefore"

  /// Claims request `requestId`, runs `decide` under the claim, releases it and says what to
  /// answer; a request that cannot be decided now stays undecided for the retry pass.
  static func answer(
    requestId: Int64, type: String?, store: any StateStore,
    events: @Sendable (ReckonEvent) -> Void,
    decide: () async -> Result<[String: String], DeferReason>
  ) async -> WebhookAnswer {
    let claimed: Bool
    do { claimed = try store.claimRequest(requestId) } catch {
      // Recorded already, so it is decided by a later retry pass.
      events(.deferred(requestId: requestId, reason: "it could not be claimed: \(error)"))
      return WebhookAnswer(
        status: 200, type: type, verdict: .deferred,
        fields: ["retry": "the request could not be claimed; it is retried"])
    }
    guard claimed else { return WebhookAnswer(status: 200, type: type, verdict: .duplicate) }
    defer { try? store.releaseRequest(requestId) }
    switch await decide() {
    case .success(let fields) where fields[decidedElsewhere] != nil:
      // Another service on the database decided it first: nothing new here.
      return WebhookAnswer(status: 200, type: type, verdict: .duplicate, fields: fields)
    case .success(let fields):
      return WebhookAnswer(status: 200, type: type, verdict: .decided, fields: fields)
    case .failure(let reason):
      events(.deferred(requestId: requestId, reason: reason.description))
      return WebhookAnswer(
        status: 200, type: type, verdict: .deferred, fields: ["retry": reason.answered])
    }
  }

  /// Reports the decision `record` stored as `receipt` (or the one another service stored
  /// first) and returns the answer's fields.
  static func stored(
    _ record: DecisionRecord, receipt: DecisionReceipt, requestId: Int64, transactionId: String,
    factProblems: [String], events: @Sendable (ReckonEvent) -> Void
  ) -> [String: String] {
    // Another service on the database decided it meanwhile: its decision and reply stand, and
    // this one, not written, is said as such.
    if receipt.alreadyDecided {
      events(
        .decidedElsewhere(
          requestId: requestId, transactionId: transactionId, decisionId: receipt.decisionId))
      return [decidedElsewhere: String(receipt.decisionId)]
    }
    events(
      .decided(
        requestId: requestId, transactionId: transactionId, action: record.action,
        rule: record.rule, reason: record.reason, entryId: receipt.entryId,
        factProblems: factProblems))
    var fields = ["action": record.action, "rule": record.rule]
    // A skip's rule may be one that grants a refund, overruled (no consent, say): without the
    // reason the answer would look like the wrong decision.
    if let reason = record.reason { fields["reason"] = reason }
    if let entryId = receipt.entryId { fields["entry"] = String(entryId) }
    return fields
  }
}

extension WebhookAnswer {
  /// The answer when the notification could not be recorded: 503 when the state's server
  /// cannot be reached, else 500, so the store delivers it again; the error only in the log.
  static func recordingFailed(type: String?, _ error: StateError) -> WebhookAnswer {
    // Unavailable, not failed: nothing was recorded, and the retry will find it all to do.
    WebhookAnswer(
      status: error.isUnreachable ? 503 : 500, type: type, verdict: .recordingFailed,
      fields: ["error": "the notification could not be recorded; try again later"],
      logDetail: error.description)
  }
}

extension ReckonEvent {
  /// The `answered` event of `answer`, to a notification from `client`.
  static func answered(_ answer: WebhookAnswer, client: String?) -> ReckonEvent {
    .answered(
      type: answer.notificationType, verdict: answer.verdict, status: answer.status,
      detail: answer.verdict.explainedInLogs
        ? answer.logDetail ?? String(decoding: answer.body, as: UTF8.self) : nil,
      client: client)
  }
}
