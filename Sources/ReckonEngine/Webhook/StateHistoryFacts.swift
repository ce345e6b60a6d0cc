import Foundation
import ReckonAppStore
import ReckonFacts
import ReckonPolicy
import ReckonState

/// The `history.*` facts from Reckon's own state database: earlier requests for the same
/// transaction, and refunds Apple reported for the same customer, both before this request and
/// of its own app and environment (a Sandbox test is not a Production request or refund).
public struct StateHistoryFacts: RecordsFactProvider {
  /// The state database.
  public let store: any StateStore

  /// Reads history from `store`.
  public init(store: any StateStore) {
    self.store = store
  }

  /// Two indexed reads of the database the request was just recorded in, behind the store's
  /// lock that writers hold for one short transaction: answered at once.
  public var answersAtOnce: Bool { true }

  /// `history.earlier_requests` and `history.earlier_refunds` for `request`.
  public func facts(for request: RefundRequest) async throws -> [String: Value] {
    try history(for: request)
  }

  /// The same facts, read on the calling thread (for the bulk dry-run).
  public func history(for request: RefundRequest) throws(StateError) -> [String: Value] {
    var facts: [String: Value] = [:]
    let app = request.notification.data.flatMap { data in
      data.bundleId.flatMap { bundleId in
        data.environment.map { AppStoreApp(bundleId: bundleId, environment: $0) }
      }
    }
    if let transactionId = request.transactionId {
      facts["history.earlier_requests"] = .number(
        Double(
          try store.requestCount(
            transactionId: transactionId, app: app?.key, before: request.receivedAt)))
    }
    let keys = request.keys
    let customer: CustomerKey? =
      keys.appAccountToken.map(CustomerKey.appAccountToken)
      ?? keys.originalTransactionId.map(CustomerKey.originalTransactionId)
    let refunds = try customer.map { customer throws(StateError) in
      try store.refundCount(customer: customer, app: app?.key, before: request.receivedAt)
    }
    facts["history.earlier_refunds"] = .number(Double(refunds ?? 0))
    return facts
  }
}
