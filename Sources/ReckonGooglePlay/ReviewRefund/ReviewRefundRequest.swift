/// The body of `orders.reviewrefund`: the answer to one chargeback review. Only
/// `ReviewRefundValidator` turns one into a body that may be sent.
public struct ReviewRefundRequest: Hashable, Sendable, Codable {
  /// The token of the review notification.
  public var pendingRefundToken: String
  /// Whether a free sample, trial or description of the item was given before purchase.
  public var sampleContentProvided: Bool
  /// What the developer would have Google do.
  public var refundPreference: GooglePlayRefundPreference
  /// How much of the purchase was used, in thousandths of a percent (45200 is 45.2%).
  public var consumptionPercentageMilliunits: Int?
  /// Uses of the purchase, as evidence (at most 1,000).
  public var consumptionUsageEvents: [ConsumptionUsageEvent]?

  /// An answer.
  public init(
    pendingRefundToken: String, sampleContentProvided: Bool,
    refundPreference: GooglePlayRefundPreference, consumptionPercentageMilliunits: Int? = nil,
    consumptionUsageEvents: [ConsumptionUsageEvent]? = nil
  ) {
    self.pendingRefundToken = pendingRefundToken
    self.sampleContentProvided = sampleContentProvided
    self.refundPreference = refundPreference
    self.consumptionPercentageMilliunits = consumptionPercentageMilliunits
    self.consumptionUsageEvents = consumptionUsageEvents
  }
}
