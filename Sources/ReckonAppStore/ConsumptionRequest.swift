import Foundation

/// The v2 body of `PUT /inApps/v2/transactions/consumption/{transactionId}`.
///
/// Optional fields that are nil are left out of the JSON, never written as `null`,
/// because Apple's own library omits them and a strict server may reject `null`.
public struct ConsumptionRequest: Codable, Hashable, Sendable {
  /// Whether the customer consented to share consumption data; Apple rejects anything but `true`.
  public var customerConsented: Bool
  /// Whether the app delivered a working purchase.
  public var deliveryStatus: DeliveryStatus
  /// Whether a free sample, trial or description of the content was offered before purchase.
  public var sampleContentProvided: Bool
  /// How much the customer consumed, in milliunits (40% is 40000), or nil to leave it out.
  public var consumptionPercentage: Int?
  /// The refund outcome the developer would prefer, or nil to leave it out.
  public var refundPreference: RefundPreference?

  /// Creates a body; the optional fields default to absent.
  public init(
    customerConsented: Bool,
    deliveryStatus: DeliveryStatus,
    sampleContentProvided: Bool,
    consumptionPercentage: Int? = nil,
    refundPreference: RefundPreference? = nil
  ) {
    self.customerConsented = customerConsented
    self.deliveryStatus = deliveryStatus
    self.sampleContentProvided = sampleContentProvided
    self.consumptionPercentage = consumptionPercentage
    self.refundPreference = refundPreference
  }

  /// The body as compact JSON with sorted keys, ready to send.
  public func jsonData() throws -> Data {
    try AppStoreJSON.encoder().encode(self)
  }
}
