import Foundation
import ReckonEngine
import ReckonGooglePlay

/// A Google Play chargeback review from history for a dry-run: the review (its receive time is
/// the decision's `now`), where it came from, Pub/Sub's message id when known, and the facts
/// recorded when it was decided, if there are any.
public struct PastReview: Sendable {
  /// The review.
  public let review: GooglePlayReviewRequest
  /// `requests.jsonl:12` or `request 42`, for messages.
  public let origin: String
  /// Pub/Sub's message id, when the line was a whole push or the state recorded it.
  public let messageId: String?
  /// The facts the decision was made on at the time, from the state database.
  public let recordedFacts: GatheredFacts?

  /// Creates a past review.
  public init(
    review: GooglePlayReviewRequest, origin: String, messageId: String? = nil,
    recordedFacts: GatheredFacts? = nil
  ) {
    self.review = review
    self.origin = origin
    self.messageId = messageId
    self.recordedFacts = recordedFacts
  }
}

/// A past request of either store, in the order its source holds it.
public enum PastEntry: Sendable {
  /// An App Store CONSUMPTION_REQUEST.
  case appStore(PastRequest)
  /// A Google Play chargeback review.
  case googlePlay(PastReview)
}
