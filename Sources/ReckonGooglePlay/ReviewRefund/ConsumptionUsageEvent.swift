/// One use of the purchased item, as evidence in a review answer.
public struct ConsumptionUsageEvent: Hashable, Sendable, Codable {
  /// The app's obfuscated id of the account that used it.
  public var obfuscatedAccountId: String?
  /// The app's obfuscated id of the profile that used it.
  public var obfuscatedProfileId: String?
  /// When it was used, RFC 3339 in UTC (`2026-11-03T10:15:30Z`).
  public var consumptionTime: String?
  /// The IP address it was used from.
  public var ipAddress: String?
  /// Roughly where it was used.
  public var location: CoarseLocation?
  /// What was used, in the developer's words (at most 5,000 characters).
  public var consumptionItemDescription: String?

  /// An event; every part is optional.
  public init(
    obfuscatedAccountId: String? = nil, obfuscatedProfileId: String? = nil,
    consumptionTime: String? = nil, ipAddress: String? = nil, location: CoarseLocation? = nil,
    consumptionItemDescription: String? = nil
  ) {
    self.obfuscatedAccountId = obfuscatedAccountId
    self.obfuscatedProfileId = obfuscatedProfileId
    self.consumptionTime = consumptionTime
    self.ipAddress = ipAddress
    self.location = location
    self.consumptionItemDescription = consumptionItemDescription
  }
}
