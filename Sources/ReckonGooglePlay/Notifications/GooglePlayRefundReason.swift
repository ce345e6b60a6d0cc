/// Why a purchase's refund or chargeback was asked for, by Google's numbers. Google's reference
/// for the review notification gives the field as a number; Reckon reads it with the numbering
/// the Voided Purchases API documents for `voidedReason`, and keeps any other number raw.
public enum GooglePlayRefundReason: Hashable, Sendable {
  case other
  case remorse
  case notReceived
  case defective
  case accidentalPurchase
  case fraud
  case friendlyFraud
  case chargeback
  /// A number Reckon does not know.
  case unrecognized(Int)

  /// The reasons Reckon knows, in Google's numbering.
  public static let known: [GooglePlayRefundReason] = [
    .other, .remorse, .notReceived, .defective, .accidentalPurchase, .fraud, .friendlyFraud,
    .chargeback,
  ]

  /// The reason Google numbers `number`.
  public init(number: Int) {
    self = Self.known.indices.contains(number) ? Self.known[number] : .unrecognized(number)
  }

  /// Google's number for it.
  public var number: Int {
    if case .unrecognized(let number) = self { return number }
    return Self.known.firstIndex(of: self)!
  }

  /// The name policies use (`FRIENDLY_FRAUD`), or `UNRECOGNIZED_7`-style for an unknown number.
  public var name: String {
    switch self {
    case .other: "OTHER"
    case .remorse: "REMORSE"
    case .notReceived: "NOT_RECEIVED"
    case .defective: "DEFECTIVE"
    case .accidentalPurchase: "ACCIDENTAL_PURCHASE"
    case .fraud: "FRAUD"
    case .friendlyFraud: "FRIENDLY_FRAUD"
    case .chargeback: "CHARGEBACK"
    case .unrecognized(let number): "UNRECOGNIZED_\(number)"
    }
  }
}
