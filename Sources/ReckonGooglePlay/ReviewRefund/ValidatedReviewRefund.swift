import Foundation

/// A review answer that keeps every rule of `orders.reviewrefund`: the only kind the client
/// sends. Made by `ReviewRefundValidator`.
public struct ValidatedReviewRefund: Hashable, Sendable {
  /// The answer.
  public let request: ReviewRefundRequest
  /// The body's bytes: compact JSON, keys sorted, absent fields left out.
  public let data: Data

  init(request: ReviewRefundRequest) {
    self.request = request
    self.data = GooglePlayJSON.encode(request)
  }

  /// The body in `data` again, checked: a stored body read back before it is sent.
  public static func revalidated(from data: Data) -> Result<
    ValidatedReviewRefund, ReviewRefundRejection
  >? {
    guard let request = try? JSONDecoder().decode(ReviewRefundRequest.self, from: data) else {
      return nil
    }
    return ReviewRefundValidator.validate(request)
  }
}
