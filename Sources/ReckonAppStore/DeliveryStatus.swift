/// Whether the app delivered an in-app purchase that works, as the v2 consumption body states it.
public enum DeliveryStatus: String, Codable, Hashable, Sendable, CaseIterable {
  /// The purchase was delivered and works properly.
  case delivered = "DELIVERED"
  /// The purchase was not delivered because of a quality issue.
  case undeliveredQualityIssue = "UNDELIVERED_QUALITY_ISSUE"
  /// The app delivered the wrong item.
  case undeliveredWrongItem = "UNDELIVERED_WRONG_ITEM"
  /// The purchase was not delivered because of a server outage.
  case undeliveredServerOutage = "UNDELIVERED_SERVER_OUTAGE"
  /// The purchase was not delivered for another reason.
  case undeliveredOther = "UNDELIVERED_OTHER"

  /// True for every status except `DELIVERED`; Apple then requires a zero consumption percentage.
  public var isUndelivered: Bool { self != .delivered }
}
