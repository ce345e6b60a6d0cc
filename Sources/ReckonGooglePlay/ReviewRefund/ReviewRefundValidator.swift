import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Holds a review answer to every rule `orders.reviewrefund` states, before it is sent.
public enum ReviewRefundValidator {
  /// Every rule `request` breaks, in field order; empty when it may be sent.
  public static func violations(of request: ReviewRefundRequest) -> [GooglePlayRuleViolation] {
    var found: [GooglePlayRuleViolation] = []
    if request.pendingRefundToken.isEmpty { found.append(.missingPendingRefundToken) }
    if let value = request.consumptionPercentageMilliunits, !(0...100_000).contains(value) {
      found.append(.consumptionOutOfRange(value))
    }
    let events = request.consumptionUsageEvents ?? []
    if events.count > GooglePlayRuleViolation.maximumUsageEvents {
      found.append(.tooManyUsageEvents(events.count))
    }
    for (index, event) in events.enumerated() {
      found += violations(of: event, at: index)
    }
    return found
  }

  /// Every rule the usage event at `index` of an answer's list breaks; empty when it may go.
  public static func violations(of event: ConsumptionUsageEvent, at index: Int)
    -> [GooglePlayRuleViolation]
  {
    var found: [GooglePlayRuleViolation] = []
    if let text = event.consumptionItemDescription,
      text.count > GooglePlayRuleViolation.maximumDescription
    {
      found.append(.descriptionTooLong(event: index, characters: text.count))
    }
    if let time = event.consumptionTime, RFC3339Time.date(time) == nil {
      found.append(.badConsumptionTime(event: index, time))
    }
    if let address = event.ipAddress, !isIPAddress(address) {
      found.append(.badIPAddress(event: index, address))
    }
    if let region = event.location?.regionCode, !isRegionCode(region) {
      found.append(.badRegionCode(event: index, region))
    }
    return found
  }

  /// The body to send, or every rule it breaks.
  public static func validate(_ request: ReviewRefundRequest) -> Result<
    ValidatedReviewRefund, ReviewRefundRejection
  > {
    let found = violations(of: request)
    guard found.isEmpty else { return .failure(ReviewRefundRejection(violations: found)) }
    return .success(ValidatedReviewRefund(request: request))
  }

  private static func isIPAddress(_ text: String) -> Bool {
    var buffer = [UInt8](repeating: 0, count: 16)
    return inet_pton(AF_INET, text, &buffer) == 1 || inet_pton(AF_INET6, text, &buffer) == 1
  }

  private static func isRegionCode(_ text: String) -> Bool {
    let bytes = Array(text.utf8)
    if bytes.count == 2 { return bytes.allSatisfy { (65...90).contains($0) } }
    if bytes.count == 3 { return bytes.allSatisfy { (48...57).contains($0) } }
    return false
  }
}
