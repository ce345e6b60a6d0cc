/// A rule of `orders.reviewrefund` that an answer breaks. No answer that breaks one is sent:
/// Google takes only the first call, so a rejected one may leave no chance to answer again.
public enum GooglePlayRuleViolation: Hashable, Sendable, CustomStringConvertible {
  /// `pendingRefundToken` is empty.
  case missingPendingRefundToken
  /// `consumptionPercentageMilliunits` is outside 0 to 100,000.
  case consumptionOutOfRange(Int)
  /// More usage events than Google takes.
  case tooManyUsageEvents(Int)
  /// An event's description is longer than Google takes.
  case descriptionTooLong(event: Int, characters: Int)
  /// An event's `consumptionTime` is not an RFC 3339 time.
  case badConsumptionTime(event: Int, String)
  /// An event's `ipAddress` is not an IPv4 or IPv6 address.
  case badIPAddress(event: Int, String)
  /// An event's `location.regionCode` is not a two-letter or three-digit region code.
  case badRegionCode(event: Int, String)

  /// The most usage events one answer may carry.
  public static let maximumUsageEvents = 1_000
  /// The longest description of one event, in characters.
  public static let maximumDescription = 5_000

  /// The rule's name, for reports and searching: `consumptionOutOfRange`.
  public var name: String {
    switch self {
    case .missingPendingRefundToken: "missingPendingRefundToken"
    case .consumptionOutOfRange: "consumptionOutOfRange"
    case .tooManyUsageEvents: "tooManyUsageEvents"
    case .descriptionTooLong: "descriptionTooLong"
    case .badConsumptionTime: "badConsumptionTime"
    case .badIPAddress: "badIPAddress"
    case .badRegionCode: "badRegionCode"
    }
  }

  /// One sentence saying which rule and where.
  public var description: String {
    switch self {
    case .missingPendingRefundToken: "pendingRefundToken is required and is empty"
    case .consumptionOutOfRange(let value):
      "consumptionPercentageMilliunits is \(value); Google takes 0 to 100000 (thousandths of a percent)"
    case .tooManyUsageEvents(let count):
      "consumptionUsageEvents has \(count) events; Google rejects more than \(Self.maximumUsageEvents)"
    case .descriptionTooLong(let event, let characters):
      "consumptionUsageEvents[\(event)].consumptionItemDescription has \(characters) characters; Google takes at most \(Self.maximumDescription)"
    case .badConsumptionTime(let event, let text):
      "consumptionUsageEvents[\(event)].consumptionTime \"\(text)\" is not an RFC 3339 time"
    case .badIPAddress(let event, let text):
      "consumptionUsageEvents[\(event)].ipAddress \"\(text)\" is not an IP address"
    case .badRegionCode(let event, let text):
      "consumptionUsageEvents[\(event)].location.regionCode \"\(text)\" is not a CLDR region code"
    }
  }
}
