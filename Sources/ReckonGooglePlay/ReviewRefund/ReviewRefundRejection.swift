/// Why an answer may not be sent: every rule it breaks.
public struct ReviewRefundRejection: Error, Hashable, Sendable, CustomStringConvertible {
  /// The rules broken, in field order.
  public let violations: [GooglePlayRuleViolation]

  /// The rules as one line.
  public var description: String { violations.map(\.description).joined(separator: "; ") }
}
