import Foundation

/// A decided request with its refund outcomes, for the outcomes report.
public struct DecidedOutcome: Hashable, Sendable {
  /// The action of a request imported from Apple's history and never decided by Reckon.
  public static let imported = "imported"

  /// When the request was received.
  public let receivedAt: Date
  /// `respond`, `hold` or `skip`; `imported` for a request imported and never decided.
  public let action: String
  /// The deciding rule.
  public let rule: String
  /// The policy's name.
  public let policyName: String
  /// The body as decided (JSON), if one was built.
  public let body: Data?
  /// The request as received, for its reason, product type and price when the state keeps no
  /// `summary` of them (a request recorded before Reckon 0.3.0); empty when it does, so a report
  /// over many requests does not read every notification.
  public let rawNotification: Data
  /// The request's price, currency, reason and product type as recorded with it; nil for a
  /// request recorded without them, whose `rawNotification` says them.
  public let summary: RequestSummary?
  /// The store environment the request came from (`Production`, `Sandbox`, `GooglePlay`).
  public let environment: String
  /// The deciding policy's version header, if it had one.
  public let policyVersion: String?
  /// SHA-256 of the deciding policy's text (hex); nil for a request never decided.
  public let policySHA256: String?
  /// The outbox entry's state (`sent`, `expired`, `held`, ...), or nil when nothing was queued.
  public let outboxState: String?
  /// The body delivered to Apple, when the entry was sent: `reckon queue set` may have changed it
  /// after the decision.
  public let sentBody: Data?
  /// Whether the body was delivered to Apple (the outbox entry reached `sent`).
  public var sent: Bool { outboxState == "sent" }
  /// The outcomes attached, oldest first: REFUND, REFUND_DECLINED, REFUND_REVERSED.
  public let outcomes: [OutcomeType]
  /// How the (first) refund was made: REFUND_FULL, REFUND_PRORATED, ...
  public let revocationType: String?
  /// For a prorated refund, the share refunded in milliunits.
  public let revocationPercentage: Int?

  /// Creates a decided request with its outcomes.
  public init(
    receivedAt: Date, action: String, rule: String, policyName: String, body: Data?,
    rawNotification: Data, outboxState: String?, sentBody: Data?, outcomes: [OutcomeType],
    revocationType: String?, revocationPercentage: Int?, summary: RequestSummary? = nil,
    environment: String = "", policyVersion: String? = nil, policySHA256: String? = nil
  ) {
    self.receivedAt = receivedAt
    self.action = action
    self.rule = rule
    self.policyName = policyName
    self.body = body
    self.rawNotification = rawNotification
    self.outboxState = outboxState
    self.sentBody = sentBody
    self.outcomes = outcomes
    self.revocationType = revocationType
    self.revocationPercentage = revocationPercentage
    self.summary = summary
    self.environment = environment
    self.policyVersion = policyVersion
    self.policySHA256 = policySHA256
  }
}
