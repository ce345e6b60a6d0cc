import ReckonAppStore
import ReckonPolicy

/// A value in a request's notification that is none of Apple's values for its field (a typo in
/// a hand-written request, or a value newer than this build), so the fact it would give is
/// missing rather than wrong.
public struct UnrecognizedValue: Sendable, Equatable, CustomStringConvertible {
  /// The JSON field, as Apple names it: `consumptionRequestReason`.
  public let field: String
  /// The value as given.
  public let value: String
  /// The fact that is missing for it: `reason`.
  public let fact: String
  /// Apple's value closest to it, if one is close.
  public let suggestion: String?

  /// `consumptionRequestReason 'UNSATISFIED' is not one of Apple's values, so reason is missing
  /// (did you mean 'UNSATISFIED_WITH_PURCHASE'?)`: for a request file given to `reckon eval`,
  /// most often written by hand.
  public var description: String {
    withoutSuggestion + (suggestion.map { " (did you mean '\($0)'?)" } ?? "")
  }

  /// The sentence without a suggestion: for the notifications `reckon serve` receives, signed by
  /// Apple, whose value is no typo but one newer than this build.
  public var withoutSuggestion: String {
    "\(field) '\(value)' is not one of Apple's values, so \(fact) is missing"
  }

  init(field: String, value: String, fact: String, among known: [String]) {
    self.field = field
    self.value = value
    self.fact = fact
    let lowered = value.lowercased()
    // The start of a longer name (`UNSATISFIED`) is as likely a slip as a misspelling.
    let extended = known.filter { $0.lowercased().hasPrefix(lowered) }
    suggestion =
      known.first { $0.lowercased() == lowered }
      ?? (lowered.count >= 3 && extended.count == 1 ? extended[0] : nil)
      ?? Suggestions.closest(to: value, among: known)
  }
}

extension RefundRequest {
  /// The values of the fields that give notification facts (the reason, the environment, the
  /// product and offer types) that are none of Apple's.
  public var unrecognizedValues: [UnrecognizedValue] {
    var found: [UnrecognizedValue] = []
    let data = notification.data
    if let raw = data?.rawConsumptionRequestReason, data?.consumptionRequestReason == nil {
      found.append(
        UnrecognizedValue(
          field: "consumptionRequestReason", value: raw, fact: "reason",
          among: ConsumptionRequestReason.allCases.map(\.rawValue)))
    }
    // The transaction's environment stands in for the notification's when that one is unknown.
    if let raw = data?.rawEnvironment, data?.environment == nil, transaction.environment == nil {
      found.append(
        UnrecognizedValue(
          field: "environment", value: raw, fact: "request.environment",
          among: AppStoreEnvironment.allCases.map(\.rawValue)))
    }
    if let raw = transaction.rawType, transaction.type == nil {
      found.append(
        UnrecognizedValue(
          field: "type", value: raw, fact: "product.type",
          among: ProductType.allCases.map(\.rawValue)))
    }
    if let raw = transaction.rawOfferType, transaction.offerType == nil {
      found.append(
        UnrecognizedValue(
          // A number is not misspelt: any digit is one edit from Apple's 1 to 4.
          field: "offerType", value: String(raw), fact: "purchase.offer", among: []))
    }
    return found
  }
}
