/// Whether an auto-renewable subscription will renew.
public enum AutoRenewStatus: Int, Codable, Hashable, Sendable, CaseIterable {
  /// Auto-renew is off.
  case off = 0
  /// Auto-renew is on.
  case on = 1
}
