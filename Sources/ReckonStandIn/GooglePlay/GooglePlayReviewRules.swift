import Foundation
import ReckonGooglePlay
import ReckonSupport

/// The stand-in's own reading of an `orders.reviewrefund` body, as Google's API front end reads
/// it: unknown field names and wrong types are refused, then the documented bounds. It works on
/// the raw JSON, apart from Reckon's validator, so that one cannot hide the other's mistake.
enum GooglePlayReviewRules {
  private static let fields: Set<String> = [
    "pendingRefundToken", "sampleContentProvided", "refundPreference",
    "consumptionPercentageMilliunits", "consumptionUsageEvents",
  ]
  private static let eventFields: Set<String> = [
    "obfuscatedAccountId", "obfuscatedProfileId", "consumptionTime", "ipAddress", "location",
    "consumptionItemDescription",
  ]
  private static let locationFields: Set<String> = [
    "regionCode", "administrativeArea", "locality", "sublocality",
  ]

  /// What Google would make of a body.
  enum Verdict {
    case accepted(ReviewRefundRequest)
    case refused(String)
  }

  /// The body, or why Google would refuse it.
  static func check(_ body: Data) -> Verdict {
    guard let members = (try? JSONValue.parse(body))?.objectValue else {
      return .refused("Invalid JSON payload received.")
    }
    if let unknown = members.keys.sorted().first(where: { !fields.contains($0) }) {
      return .refused("Invalid JSON payload received. Unknown name \"\(unknown)\".")
    }
    guard case .string(let token)? = members["pendingRefundToken"], !token.isEmpty else {
      return .refused("pendingRefundToken is required.")
    }
    guard case .bool? = members["sampleContentProvided"] else {
      return .refused("sampleContentProvided is required.")
    }
    guard case .string(let preference)? = members["refundPreference"],
      GooglePlayRefundPreference(rawValue: preference) != nil
    else { return .refused("refundPreference must be APPROVE, DECLINE or NEUTRAL.") }
    if let value = members["consumptionPercentageMilliunits"] {
      guard case .integer(let number) = value, (0...100_000).contains(number) else {
        return .refused("consumptionPercentageMilliunits must be between 0 and 100000.")
      }
    }
    if let value = members["consumptionUsageEvents"] {
      guard case .array(let events) = value else {
        return .refused("consumptionUsageEvents must be a list.")
      }
      if events.count > 1_000 { return .refused("Too many consumption usage events.") }
      for event in events {
        if let problem = eventProblem(event) { return .refused(problem) }
      }
    }
    guard let request = try? JSONDecoder().decode(ReviewRefundRequest.self, from: body) else {
      return .refused("Invalid JSON payload received.")
    }
    return .accepted(request)
  }

  private static func eventProblem(_ event: JSONValue) -> String? {
    guard let members = event.objectValue else {
      return "A consumption usage event must be an object."
    }
    if let unknown = members.keys.sorted().first(where: { !eventFields.contains($0) }) {
      return "Invalid JSON payload received. Unknown name \"\(unknown)\"."
    }
    if let value = members["consumptionItemDescription"] {
      guard case .string(let text) = value, text.count <= 5_000 else {
        return "consumptionItemDescription is longer than 5000 characters."
      }
    }
    if let value = members["consumptionTime"] {
      guard case .string(let text) = value, RFC3339Time.date(text) != nil else {
        return
          "Invalid value at 'consumption_usage_events.consumption_time' (type.googleapis.com/google.protobuf.Timestamp)."
      }
    }
    if let value = members["location"] {
      guard let location = value.objectValue else { return "location must be an object." }
      if let unknown = location.keys.sorted().first(where: { !locationFields.contains($0) }) {
        return "Invalid JSON payload received. Unknown name \"\(unknown)\"."
      }
    }
    return nil
  }
}
