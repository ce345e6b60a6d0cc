/// Roughly where a use of the purchase happened, as `orders.reviewrefund` takes it.
public struct CoarseLocation: Hashable, Sendable, Codable {
  /// The CLDR region code (`US`, `DE`).
  public var regionCode: String?
  /// The state, province or prefecture, where addresses use one.
  public var administrativeArea: String?
  /// The city or town.
  public var locality: String?
  /// A part of the city.
  public var sublocality: String?

  /// A location; every part is optional.
  public init(
    regionCode: String? = nil, administrativeArea: String? = nil, locality: String? = nil,
    sublocality: String? = nil
  ) {
    self.regionCode = regionCode
    self.administrativeArea = administrativeArea
    self.locality = locality
    self.sublocality = sublocality
  }
}
