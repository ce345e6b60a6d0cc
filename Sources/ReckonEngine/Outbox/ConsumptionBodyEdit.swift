import Foundation
import ReckonAppStore
import ReckonPolicy
import ReckonSupport

/// The `FIELD=VALUE` changes `reckon queue set` makes to a stored body: only the fields of
/// Apple's `ConsumptionRequest` an operator may change, each read as Apple types it, so a typo
/// can never add a field Apple ignores or leave the intended one unchanged.
public struct ConsumptionBodyEdit: Hashable, Sendable {
  /// Why an assignment was refused; nothing is changed.
  public enum Failure: Error, Hashable, Sendable, CustomStringConvertible {
    /// The word has no `=`, or nothing before it.
    case notAnAssignment(String)
    /// The field is not one of `ConsumptionBodyEdit.fields`.
    case unknownField(String, suggestion: String?)
    /// `customerConsented`, which only the customer gives.
    case consentIsTheCustomers
    /// The field was named more than once: which value was meant cannot be told.
    case repeatedField(String)
    /// The value does not have the field's type; `expected` says what does.
    case badValue(field: String, value: String, expected: String)

    /// A sentence naming the field and value.
    public var description: String {
      switch self {
      case .notAnAssignment(let word): "'\(word)' is not FIELD=VALUE"
      case .unknownField(let field, let suggestion):
        "'\(field)' is not a field of Apple's ConsumptionRequest"
          + (suggestion.map { "; did you mean '\($0)'?" }
            ?? " (the fields are \(ConsumptionBodyEdit.fields.joined(separator: ", ")))")
      case .consentIsTheCustomers:
        "customerConsented cannot be set: it is the customer's consent, given to Apple, and no reply is sent without it"
      case .badValue(let field, let value, let expected): "\(field)=\(value): \(expected)"
      case .repeatedField(let field):
        "\(field) is given more than once; give each field once"
      }
    }
  }

  /// The body fields an operator may set (`ConsumptionRequest` less `customerConsented`).
  public static let fields = [
    "consumptionPercentage", "deliveryStatus", "refundPreference", "sampleContentProvided",
  ]

  /// The word that leaves an optional field out of the body, as the dry-run's outputs name a
  /// reply without a preference.
  public static let absent = "none"

  /// The new value of each field named; nil leaves the field out of the body.
  public let changes: [String: JSONValue?]

  /// Reads `FIELD=VALUE` words; `refundPreference=none` and `consumptionPercentage=none` leave
  /// those optional fields out.
  public init(assignments: [String]) throws(Failure) {
    var changes: [String: JSONValue?] = [:]
    for word in assignments {
      guard let equals = word.firstIndex(of: "="), equals != word.startIndex else {
        throw .notAnAssignment(word)
      }
      let field = String(word[..<equals])
      let value = try Self.value(of: field, String(word[word.index(after: equals)...]))
      guard changes.updateValue(value, forKey: field) == nil else { throw .repeatedField(field) }
    }
    self.changes = changes
  }

  /// `body` with the changes made, keys sorted; nil when `body` is not a JSON object.
  public func applied(to body: Data) -> Data? {
    guard var fields = (try? JSONValue.parse(body))?.objectValue else { return nil }
    for (key, value) in changes { fields[key] = value }
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    return try? encoder.encode(JSONValue.object(fields))
  }

  private static func value(of field: String, _ text: String) throws(Failure) -> JSONValue? {
    switch field {
    case "customerConsented": throw .consentIsTheCustomers
    case "deliveryStatus": return try name(field, text, DeliveryStatus.allCases.map(\.rawValue))
    case "refundPreference":
      if text == absent { return nil }
      return try name(field, text, RefundPreference.allCases.map(\.rawValue), orAbsent: true)
    case "consumptionPercentage" where text == absent: return nil
    case "sampleContentProvided":
      guard let flag = ["true": true, "false": false][text] else {
        throw .badValue(field: field, value: text, expected: "must be true or false")
      }
      return .bool(flag)
    case "consumptionPercentage": return .integer(try milliPercent(text))
    default:
      throw .unknownField(field, suggestion: Suggestions.closest(to: field, among: fields))
    }
  }

  private static func name(
    _ field: String, _ text: String, _ names: [String], orAbsent: Bool = false
  ) throws(Failure) -> JSONValue {
    guard names.contains(text) else {
      let hint =
        Suggestions.closest(to: text, among: names + (orAbsent ? [absent] : [])).map {
          "did you mean '\($0)'?"
        }
        ?? "must be one of \(names.joined(separator: ", "))"
        + (orAbsent ? ", or \(absent) to send none (share data only)" : "")
      throw .badValue(field: field, value: text, expected: hint)
    }
    return .string(text)
  }

  /// Apple's unit is the milli-percent (40% is 40000); `50%` is accepted and converted, since
  /// a bare 50 would mean 0.05%.
  private static func milliPercent(_ text: String) throws(Failure) -> Int {
    let field = "consumptionPercentage"
    let range = "must be between 0% and 100% (0 to 100000 milli-percent)"
    if text.hasSuffix("%") {
      guard let percent = Double(text.dropLast()), percent.isFinite else {
        throw .badValue(field: field, value: text, expected: "write a percentage such as 50%")
      }
      guard (0...100).contains(percent) else {
        throw .badValue(field: field, value: text, expected: range)
      }
      let milli = (percent * 1_000).rounded()
      guard abs(milli - percent * 1_000) < 1e-6 else {
        throw .badValue(
          field: field, value: text, expected: "Apple takes at most three decimals of a percent")
      }
      return Int(milli)
    }
    guard let milli = Int(text) else {
      throw .badValue(
        field: field, value: text,
        expected:
          "write a percentage (50%) or Apple's milli-percent (50000 for 50%), or \(absent) to send none"
      )
    }
    guard (0...100_000).contains(milli) else {
      throw .badValue(field: field, value: text, expected: range)
    }
    // 94 for 94000 is the mistake Apple's ConsumptionPercentageOutOfRangeError usually means;
    // a bare 1 to 100 is far likelier a percentage than a share under a tenth of a percent.
    guard !(1...100).contains(milli) else {
      throw .badValue(
        field: field, value: text,
        expected:
          "a bare \(milli) is Apple's milli-percent, \(Double(milli) / 1_000)%; write \(milli)% "
          + "(or \(milli * 1_000)) for \(milli) percent, or \(Double(milli) / 1_000)% if that is meant"
      )
    }
    return milli
  }
}
