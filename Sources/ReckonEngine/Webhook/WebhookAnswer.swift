import Foundation
import ReckonSupport

/// What the webhook answers one POST with, and what became of the notification, for logs and
/// metrics. 200 means the notification is durably recorded; 500 means it is not (Apple retries);
/// 4xx means it failed verification and was never decided on.
public struct WebhookAnswer: Hashable, Sendable {
  /// The HTTP status to answer.
  public let status: Int
  /// A small JSON body saying what happened.
  public let body: Data
  /// The notification type, when the payload could be read.
  public let notificationType: String?
  /// What became of the notification.
  public let verdict: Verdict
  /// The id every log line of the request carries (`RequestLogContext`), for the answer's
  /// `X-Request-Id` header.
  public internal(set) var correlationId: String?
  /// Why, for the log only, when the answer's body must not say it (the state database's own
  /// error, which whoever posted has no business reading).
  let logDetail: String?

  /// What became of one notification.
  public enum Verdict: String, Hashable, Sendable, CaseIterable {
    /// A CONSUMPTION_REQUEST was decided (and its reply queued when it sends one).
    case decided
    /// A CONSUMPTION_REQUEST was recorded but not decided yet (a fact source failed, or the
    /// decision could not be stored); it is retried later.
    case deferred
    /// The notification was already recorded (Apple retried it); nothing changed.
    case duplicate
    /// A CONSUMPTION_REQUEST under a new UUID for a transaction whose earlier request is still
    /// open: recorded, and answered by the earlier request's decision, not decided again.
    case repeated
    /// A REFUND, REFUND_DECLINED, REFUND_REVERSED or REVOKE was attached to its request.
    case outcome
    /// Another notification type, recorded and acknowledged.
    case acknowledged
    /// The notification failed verification or is not a notification at all.
    case refused
    /// The notification could not be recorded; Apple should retry.
    case recordingFailed = "recording_failed"

    /// Whether the answer's body, which says why, belongs in the log line.
    var explainedInLogs: Bool {
      switch self {
      case .refused, .recordingFailed, .repeated: true
      case .decided, .deferred, .duplicate, .outcome, .acknowledged: false
      }
    }
  }

  /// Creates an answer with a JSON body of `fields`.
  init(
    status: Int, type: String?, verdict: Verdict, fields: [String: String] = [:],
    logDetail: String? = nil
  ) {
    self.status = status
    self.notificationType = type
    self.verdict = verdict
    self.logDetail = logDetail
    var object = fields
    object["result"] = verdict.rawValue
    // Written directly, as `JSONEncoder` with sorted keys and unescaped slashes would: every
    // request answers with one, and `JSONEncoder` cost about 1.5% of a webhook request.
    var writer = JSONTextWriter(escapesSlashes: false, capacity: 128)
    writer.beginObject()
    for (key, value) in object.sorted(by: { $0.key < $1.key }) { writer.field(key, value) }
    writer.endObject()
    self.body = writer.data
  }
}
