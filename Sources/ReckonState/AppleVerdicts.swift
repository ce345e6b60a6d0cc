import Foundation
import ReckonAppStore

/// When Apple refunded or declined a request for each transaction (a REFUND or REFUND_DECLINED;
/// a REFUND_REVERSED undoes an earlier refund and answers no request), as a dry-run read them: a
/// request Apple sent after one is the customer asking again, not a repeat of the request Apple
/// answered, as `reckon serve` records it.
public struct AppleVerdicts: Sendable {
  private var times: [String: [(environment: AppStoreEnvironment?, at: Date)]] = [:]

  /// None yet.
  public init() {}

  /// Whether `type` (a notification type) is Apple's verdict on a refund request.
  package static func isVerdict(_ type: String?) -> Bool {
    type == OutcomeType.refund.rawValue || type == OutcomeType.refundDeclined.rawValue
  }

  /// Notes a verdict on `transactionId` at `date`; a nil environment is one of unknown app,
  /// which counts for every environment, as `history.earlier_refunds` counts it.
  public mutating func add(
    transactionId: String, environment: AppStoreEnvironment?, at date: Date
  ) {
    times[transactionId, default: []].append((environment, date))
  }

  /// Adds `other`'s verdicts.
  package mutating func merge(_ other: AppleVerdicts) {
    times.merge(other.times) { $0 + $1 }
  }

  /// Whether a verdict on `transactionId` in `environment` came within `start...end`.
  package func closes(
    _ transactionId: String, _ environment: AppStoreEnvironment?, from start: Date, to end: Date
  ) -> Bool {
    times[transactionId]?.contains { verdict in
      (verdict.environment == nil || environment == nil || verdict.environment == environment)
        && start <= verdict.at && verdict.at <= end
    } ?? false
  }
}
