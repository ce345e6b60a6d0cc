import Foundation
import ReckonSupport

/// A notification as the webhook received it, recorded once per `notificationUUID`.
public struct NotificationRecord: Hashable, Sendable {
  /// The store's notification UUID; retries of the same notification keep it.
  public var notificationUUID: String
  /// e.g. `CONSUMPTION_REQUEST`.
  public var notificationType: String
  /// The transaction it is about.
  public var transactionId: String?
  /// The transaction's original transaction id.
  public var originalTransactionId: String?
  /// The customer's account id when the purchase set one, as `UUIDText.accountKey` keeps it.
  public var appAccountToken: String?
  /// The app's bundle id.
  public var bundleId: String
  /// The store environment the notification came from (`Production`, `Sandbox`).
  public var environment: String
  /// When Reckon received it.
  public var receivedAt: Date
  /// When Apple signed it: Apple's retries resend the first delivery's payload, so this is when
  /// Apple first sent it, and its reply window counts from then.
  public var signedDate: Date?
  /// The request body exactly as received (the signed payload), kept for audit and dry runs.
  public var rawNotification: Data
  /// Whether it came from Apple's notification history rather than the webhook: kept for
  /// dry-runs and reports, never decided or answered by the live service.
  public var imported: Bool
  /// What the reports read of the request (price, reason, product type), when the recorder
  /// read them from the verified notification; nil leaves the reports to decode it.
  public var summary: RequestSummary?

  /// When the store asked, by its own clock where the notification was signed (the verdict's
  /// time is the store's too), else by its receipt.
  public var askedAt: Date { signedDate ?? receivedAt }

  /// Creates a record.
  public init(
    notificationUUID: String, notificationType: String, transactionId: String?,
    originalTransactionId: String? = nil,
    appAccountToken: String? = nil, bundleId: String, environment: String,
    receivedAt: Date, signedDate: Date? = nil,
    rawNotification: Data, imported: Bool = false, summary: RequestSummary? = nil
  ) {
    self.notificationUUID = notificationUUID
    self.notificationType = notificationType
    self.transactionId = transactionId
    self.originalTransactionId = originalTransactionId
    self.appAccountToken = appAccountToken.map(UUIDText.accountKey)
    self.bundleId = bundleId
    self.environment = environment
    self.receivedAt = receivedAt
    self.signedDate = signedDate
    self.rawNotification = rawNotification
    self.imported = imported
    self.summary = summary
  }
}

/// Whether a notification was new.
public enum RecordResult: Hashable, Sendable {
  /// Recorded now under this request id.
  case recorded(requestId: Int64)
  /// Already recorded (Apple retried it) under this request id; do not decide again.
  case duplicate(requestId: Int64)
  /// A new notification for a transaction whose earlier request (`of`) is still open: the same
  /// refund request sent again. Recorded under `requestId`; the earlier decision answers it.
  case repeated(requestId: Int64, of: Int64)

  /// The id the notification is recorded under.
  public var requestId: Int64 {
    switch self {
    case .recorded(let id), .duplicate(let id), .repeated(let id, _): id
    }
  }
}

/// A decision as stored: what was decided, by which policy text, on which facts, and why.
public struct DecisionRecord: Hashable, Sendable {
  /// The policy's name.
  public var policyName: String
  /// Its version header.
  public var policyVersion: String?
  /// SHA-256 of the policy's source text, so the exact text can be identified later.
  public var policySHA256: String
  /// `respond`, `hold` or `skip`.
  public var action: String
  /// The deciding rule.
  public var rule: String
  /// Why nothing is sent, for skips.
  public var reason: String?
  /// The body as decided (JSON), if one was built.
  public var body: Data?
  /// The facts the decision was made on, with their sources (JSON).
  public var factsJSON: Data
  /// The full explanation: field sources and trace (JSON).
  public var explanationJSON: Data?
  /// When the decision counts as made.
  public var decidedAt: Date

  /// Creates a record from its parts.
  public init(
    policyName: String, policyVersion: String?, policySHA256: String, action: String, rule: String,
    reason: String?,
    body: Data?, factsJSON: Data, explanationJSON: Data?, decidedAt: Date
  ) {
    self.policyName = policyName
    self.policyVersion = policyVersion
    self.policySHA256 = policySHA256
    self.action = action
    self.rule = rule
    self.reason = reason
    self.body = body
    self.factsJSON = factsJSON
    self.explanationJSON = explanationJSON
    self.decidedAt = decidedAt
  }
}

/// What to put in the outbox with a decision.
public struct OutboxEnqueue: Hashable, Sendable {
  /// The app to send for.
  public var app: AppKey
  /// The transaction in the URL.
  public var transactionId: String
  /// The body to send, checked against the store's rules.
  public var body: CheckedBody
  /// Apple's deadline.
  public var deadline: Date
  /// Whether it waits for review (`hold`), and if so when it goes out as decided anyway.
  public var holdUntil: Date?

  /// Creates an outbox request.
  public init(
    app: AppKey, transactionId: String, body: CheckedBody, deadline: Date,
    holdUntil: Date? = nil
  ) {
    self.app = app
    self.transactionId = transactionId
    self.body = body
    self.deadline = deadline
    self.holdUntil = holdUntil
  }
}

/// The ids written by `recordDecision`.
public struct DecisionReceipt: Hashable, Sendable {
  /// The decision's id.
  public let decisionId: Int64
  /// The outbox entry's id, when one was enqueued.
  public let entryId: Int64?
  /// Whether the request had been decided already (by another service on the same database, a
  /// standby retrying it say): this decision was not written, and `decisionId` and `entryId`
  /// are the first decision's.
  public var alreadyDecided = false

  /// A decision receipt from its parts.
  public init(decisionId: Int64, entryId: Int64?, alreadyDecided: Bool = false) {
    self.decisionId = decisionId
    self.entryId = entryId
    self.alreadyDecided = alreadyDecided
  }
}

/// A refund outcome Apple reported later.
public enum OutcomeType: String, Hashable, Sendable, CaseIterable {
  /// The App Store refunded the transaction.
  case refund = "REFUND"
  /// The App Store declined the refund.
  case refundDeclined = "REFUND_DECLINED"
  /// A granted refund was reversed.
  case refundReversed = "REFUND_REVERSED"
  /// A family-shared purchase is no longer available to the family member.
  case revoke = "REVOKE"
  /// The App Store refunded some seats of a multiseat purchase (a REFUND with subtype SEATS);
  /// the transaction stays valid for the others.
  case seatsRefunded = "REFUND_SEATS"
  /// The App Store took back seat claims of a group subscription (UNCLAIM_SEATS); nothing was
  /// refunded.
  case seatsUnclaimed = "UNCLAIM_SEATS"

  /// The outcome a notification of `notificationType` and `subtype` reports; nil for the
  /// notifications that report none.
  public init?(notificationType: String?, subtype: String?) {
    switch (notificationType, subtype) {
    // A seat refund leaves the transaction valid: never recorded as a refund of it.
    case ("REFUND"?, "SEATS"?): self = .seatsRefunded
    case ("UNCLAIM_SEATS"?, _): self = .seatsUnclaimed
    case (let type?, _): self.init(rawValue: type)
    case (nil, _): return nil
    }
  }

  /// Whether this is the store's verdict on a refund request: it refunded the transaction,
  /// refunded some of its seats, or declined.
  public var isVerdict: Bool { Self.verdicts.contains(self) }

  /// The outcomes that are a verdict on a refund request.
  public static let verdicts: [OutcomeType] = [.refund, .refundDeclined, .seatsRefunded]

  /// The outcomes that gave the customer money back, as `history.earlier_refunds` counts them.
  public static let refunds: [OutcomeType] = [.refund, .seatsRefunded]

  /// `types` as an SQL list of string literals, for `type IN (…)`.
  package static func sqlList(_ types: [OutcomeType]) -> String {
    types.map { "'\($0.rawValue)'" }.joined(separator: ", ")
  }
}

/// How a customer is recognised across transactions.
public enum CustomerKey: Hashable, Sendable {
  /// The account id set at purchase, as `UUIDText.accountKey` keeps it.
  case appAccountToken(String)
  /// The original transaction id.
  case originalTransactionId(String)
}
