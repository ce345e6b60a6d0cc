import Foundation

/// The commitment details of a transaction for a subscription billed over a commitment period.
public struct TransactionCommitmentInfo: Codable, Hashable, Sendable {
  /// Which billing period of the commitment this transaction pays for.
  public var billingPeriodNumber: Int?
  /// When the commitment ends.
  public var commitmentExpiresDate: Date?
  /// The price of the whole commitment, in milliunits.
  public var commitmentPrice: Int64?
  /// How many billing periods the commitment has.
  public var totalBillingPeriods: Int?

  /// Creates empty commitment details; set the fields you need.
  public init() {}
}
