import ReckonSupport

/// A chargeback that waits for the developer's review: answer it once with
/// `orders.reviewrefund` and the `pendingRefundToken`, within 24 hours of the notification.
public struct PendingRefundReviewNotification: Hashable, Sendable {
  /// The token the answer must carry.
  public let pendingRefundToken: String
  /// The order the chargeback is for (`GPA.1234-5678-9012-34567`): the answer's path names it.
  public let orderId: String
  /// Why the customer asked, as Google numbers it; kept raw when Reckon does not know the number.
  public let refundReason: GooglePlayRefundReason?
  /// The app's obfuscated id of the buyer's account, as the app set it at purchase.
  public let obfuscatedAccountId: String?
  /// The app's obfuscated id of the buyer's profile, as the app set it at purchase.
  public let obfuscatedProfileId: String?

  /// Creates a review notification.
  public init(
    pendingRefundToken: String, orderId: String, refundReason: GooglePlayRefundReason? = nil,
    obfuscatedAccountId: String? = nil, obfuscatedProfileId: String? = nil
  ) {
    self.pendingRefundToken = pendingRefundToken
    self.orderId = orderId
    self.refundReason = refundReason
    self.obfuscatedAccountId = obfuscatedAccountId
    self.obfuscatedProfileId = obfuscatedProfileId
  }

  init(_ fields: PayloadFields) throws(GooglePlayPayloadError) {
    self.init(
      pendingRefundToken: try fields.string("pendingRefundToken"),
      orderId: try fields.string("orderId"),
      refundReason: try fields.integer("refundReason", optional: true).map(
        GooglePlayRefundReason.init(number:)),
      obfuscatedAccountId: try fields.string("obfuscatedAccountId", optional: true),
      obfuscatedProfileId: try fields.string("obfuscatedProfileId", optional: true))
  }

  var json: JSONValue {
    var members: [String: JSONValue] = [
      "version": .string("1.0"), "pendingRefundToken": .string(pendingRefundToken),
      "orderId": .string(orderId),
    ]
    if let refundReason { members["refundReason"] = .integer(refundReason.number) }
    if let obfuscatedAccountId { members["obfuscatedAccountId"] = .string(obfuscatedAccountId) }
    if let obfuscatedProfileId { members["obfuscatedProfileId"] = .string(obfuscatedProfileId) }
    return .object(members)
  }
}
