import Foundation
import ReckonAppStore
import ReckonEngine
import ReckonFacts
import ReckonGooglePlay

/// One past request in a dry-run: which request, what the policy decided, and with `--against`,
/// what the other policy decided; or why it could not be decided.
public struct DryRunRow: Sendable {
  // Stored largest first, and the identifiers packed: a dry-run holds a row per request.
  let packedNotificationUUID: PackedIdentifier
  let packedTransactionId: PackedIdentifier

  /// Apple's notification UUID; for a Google Play review, `google:` and Pub/Sub's message id
  /// as `reckon serve` records it, or empty when it is not known (a state's review).
  public var notificationUUID: String { packedNotificationUUID.text }
  /// The transaction the customer wanted refunded (Google Play's order id).
  public var transactionId: String { packedTransactionId.text }
  /// When the request was received: the decision's `now`.
  public let receivedAt: Date
  /// Apple's deadline for the reply (see `RefundRequest.deadline`): until then a new request for
  /// the transaction is the same one sent again.
  public let deadline: Date
  /// The customer's stated reason (in its store's words), if given.
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
  public var factsFound: Bool { flags & Self.foundFacts != 0 }
  /// The store the request came from.
  public var store: FactSchema.Store { flags & Self.googlePlay != 0 ? .googlePlay : .appStore }
  /// `factsFound` and the store, in one byte: a second would grow every row by a word.
  private let flags: UInt8
  private static let foundFacts: UInt8 = 1
  private static let googlePlay: UInt8 = 2

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
    flags = factsFound ? Self.foundFacts : 0
  }

  /// A row for a Google Play review; `messageId` is Pub/Sub's, when known. Apple's product
  /// type, price and environment are left empty: the review names none of them.
  public init(
    review: GooglePlayReviewRequest, messageId: String?, verdict: DryRunVerdict?,
    against: DryRunVerdict?, problem: String? = nil, factsFound: Bool = true
  ) {
    packedNotificationUUID = PackedIdentifier(messageId.map { "google:" + $0 } ?? "")
    packedTransactionId = PackedIdentifier(review.review.orderId)
    receivedAt = review.receivedAt
    reason = review.review.refundReason?.name
    productType = nil
    environment = nil
    price = nil
    currency = nil
    deadline = review.deadline
    self.verdict = verdict
    self.against = against
    self.problem = problem
    flags = Self.googlePlay | (factsFound ? Self.foundFacts : 0)
  }

  /// Whether the `--against` policy would send something different.
  public var changed: Bool {
    guard let verdict, let against else { return false }
    return verdict.differs(from: against)
  }
}
