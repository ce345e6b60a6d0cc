import Foundation

/// When the store refunded or declined a request for each transaction (a REFUND, of the
/// transaction or of some seats, or a REFUND_DECLINED; a REFUND_REVERSED undoes an earlier refund and answers no request), as a
/// dry-run reads them: a request the store sent after one is the customer asking again, not a
/// repeat of the request the store answered, as `reckon serve` records it.
public struct StoreVerdicts: Sendable {
  private var times: [String: [(environment: String?, at: Date, outcome: OutcomeType?)]] = [:]

  /// None yet.
  public init() {}

  /// Whether a notification of `type` and `subtype` is the store's verdict on a refund request.
  package static func isVerdict(_ type: String?, subtype: String?) -> Bool {
    OutcomeType(notificationType: type, subtype: subtype)?.isVerdict ?? false
  }

  /// Notes a verdict on `transactionId` at `date` (`outcome`, when the reader knows which); a
  /// nil environment is one of unknown app, which counts for every environment, as
  /// `history.earlier_refunds` counts it.
  public mutating func add(
    transactionId: String, environment: String?, at date: Date, outcome: OutcomeType? = nil
  ) {
    times[transactionId, default: []].append((environment, date, outcome))
  }

  /// The store's first verdict on `transactionId` in `environment` at or after `start`, when
  /// its kind is known: the outcome of a request received then.
  package func outcome(_ transactionId: String, _ environment: String?, after start: Date)
    -> OutcomeType?
  {
    times[transactionId]?.filter { verdict in
      (verdict.environment == nil || environment == nil || verdict.environment == environment)
        && start <= verdict.at
    }.min { $0.at < $1.at }?.outcome
  }

  /// Adds `other`'s verdicts.
  package mutating func merge(_ other: StoreVerdicts) {
    times.merge(other.times) { $0 + $1 }
  }

  /// Whether a verdict on `transactionId` in `environment` came within `start...end`.
  package func closes(
    _ transactionId: String, _ environment: String?, from start: Date, to end: Date
  ) -> Bool {
    times[transactionId]?.contains { verdict in
      (verdict.environment == nil || environment == nil || verdict.environment == environment)
        && start <= verdict.at && verdict.at <= end
    } ?? false
  }
}
