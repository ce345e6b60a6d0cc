/// How the customer holds a transaction: bought it, or received it through Family Sharing or an organization.
public enum InAppOwnershipType: String, Codable, Hashable, Sendable, CaseIterable {
  /// The customer has it through Family Sharing; Send Consumption Information rejects these.
  case familyShared = "FAMILY_SHARED"
  /// The customer bought it.
  case purchased = "PURCHASED"
  /// An organization or group assigned it to the customer; Send Consumption Information rejects these.
  case assigned = "ASSIGNED"
}
