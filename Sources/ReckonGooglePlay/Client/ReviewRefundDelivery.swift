/// What became of one `orders.reviewrefund` call. Google records only the first call for a
/// review, so what matters is whether it can have recorded this one.
public enum ReviewRefundDelivery: Hashable, Sendable {
  /// Google answered 2xx: the answer is recorded (or an earlier one was; Google answers the
  /// same to later calls and ignores them).
  case recorded
  /// Google refused the answer for good (4xx): a bad body, an unknown order or token, a review
  /// already closed; status, Google's `status` word and message.
  case rejected(status: Int, reason: String)
  /// No call was made: no access token could be had (a credentials problem: a deleted key, a
  /// disabled account), so Google recorded nothing.
  case noToken(String)
  /// Google surely recorded nothing: no connection, a refusal of the credentials
  /// (401/403), or a plain "come back later" (429, 503); another try is safe. `status` is
  /// Google's answer, nil when there was none.
  case notRecorded(reason: String, status: Int?, retryAfterSeconds: Int?)
  /// Google may have recorded it: the transfer broke after the request went out, or a 5xx
  /// that does not say the call was turned away. Not sent again on its own.
  case uncertain(reason: String)
}
