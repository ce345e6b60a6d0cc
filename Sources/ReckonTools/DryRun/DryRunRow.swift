import Foundation
import ReckonAppStore
import ReckonEngine

/// One past request in a dry-run: which request, what the policy decided, and with `--against`,
/// what the other policy decided; or why it could not be decided.
public struct DryRunRow: Sendable {
  // Stored largest first, and the identifiers packed: a dry-run holds a row per request.
  let packedNotificationUUID: PackedIdentifier
  let packedTransactionId: PackedIdentifier

  /// Apple's notification UUID.
  public var notificationUUID: String { packedNotificationUUID.text }
  /// The transaction the customer wanted refunded.
  public var transactionId: String { packedTransactionId.text }
  /// When the request was received: the decision's `now`.
  public let receivedAt: Date
  /// Apple's deadline for the reply (see `RefundRequest.deadline`): until then a new request for
  /// the transaction is the same one sent again.
  public let deadline: Date
  /// The customer's stated reason (Apple's name), if given.
  public let reason: String?
  /// The product type as policies name it (e.g. `CONSUMABLE`), if known.
  public let productType: String?
  /// The ISO 4217 currency of `price`.
  public let currency: String?
  /// Why the request was not decided, when it was not.
  public let problem: String?
  /// What the customer paid, in milliunits of `currency` (Apple's `price`), if known.
  public let price: Int64?
  /// The policy's verdict; nil when facts could not be had.
  public let verdict: DryRunVerdict?
  /// The `--against` policy's verdict.
  public let against: DryRunVerdict?
  /// The environment the notification came from, if known.
  public let environment: AppStoreEnvironment?
  /// Whether some configured fact source had anything for the request; when none had, it was
  /// decided on the notification (and Reckon's records) alone, which a summary tells apart from
  /// what the facts said.
  public let factsFound: Bool

  /// A decided (or undecidable, with `problem`) row for `request`.
  public init(
    request: RefundRequest, verdict: DryRunVerdict?, against: DryRunVerdict?,
    problem: String? = nil, factsFound: Bool = true
  ) {
    self.init(
      request: request, type: request.transaction.type, verdict: verdict, against: against,
      problem: problem, factsFound: factsFound)
  }

  /// A row for `request` whose product type the caller has already parsed.
  init(
    request: RefundRequest, type: ProductType?, verdict: DryRunVerdict?,
    against: DryRunVerdict?, problem: String?, factsFound: Bool
  ) {
    packedNotificationUUID = PackedIdentifier(request.notification.notificationUUID ?? "")
    packedTransactionId = PackedIdentifier(request.transactionId ?? "")
    receivedAt = request.receivedAt
    reason = request.notification.data?.rawConsumptionRequestReason
    // The policy name of a type Apple names, else as sent.
    productType = type?.policyName ?? request.transaction.rawType
    environment = request.notification.data?.environment
    price = request.transaction.price
    currency = request.transaction.currency
    // As `RefundRequest.deadline`, from the environment just read rather than read again.
    deadline = (environment ?? .production).replyDeadline(
      receivedAt: request.receivedAt, signedDate: request.notification.signedDate)
    self.verdict = verdict
    self.against = against
    self.problem = problem
    self.factsFound = factsFound
  }

  /// Whether the `--against` policy would send something different.
  public var changed: Bool {
    guard let verdict, let against else { return false }
    return verdict.differs(from: against)
  }
}
