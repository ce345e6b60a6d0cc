/// The type of an in-app purchase, with Apple's display-style raw values from the transaction payload.
public enum ProductType: String, Codable, Hashable, Sendable, CaseIterable {
  /// A consumable in-app purchase.
  case consumable = "Consumable"
  /// A non-consumable in-app purchase.
  case nonConsumable = "Non-Consumable"
  /// An auto-renewable subscription.
  case autoRenewable = "Auto-Renewable Subscription"
  /// A non-renewing subscription.
  case nonRenewing = "Non-Renewing Subscription"

  /// The identifier policies use, since Apple's raw values contain spaces and hyphens.
  public var policyName: String {
    switch self {
    case .consumable: "CONSUMABLE"
    case .nonConsumable: "NON_CONSUMABLE"
    case .autoRenewable: "AUTO_RENEWABLE"
    case .nonRenewing: "NON_RENEWING"
    }
  }

  /// Looks a type up by its policy identifier, e.g. `NON_CONSUMABLE`; nil if unknown.
  public init?(policyName: String) {
    guard let match = Self.allCases.first(where: { $0.policyName == policyName }) else {
      return nil
    }
    self = match
  }
}
