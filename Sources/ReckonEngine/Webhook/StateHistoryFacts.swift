import Foundation
import ReckonAppStore
import ReckonFacts
import ReckonPolicy
import ReckonState

/// The `history.*` facts from Reckon's own state database: earlier requests for the same
/// transaction (Google: order), and refunds the store reported for the same customer, both
/// before this request and of its own app and environment (a Sandbox test is not a Production
/// request or refund).
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
  public func facts(for request: any ReplyRequest) async throws -> [String: Value] {
    try history(for: request)
  }

  /// The same facts, read on the calling thread (for the bulk dry-run).
  public func history(for request: some ReplyRequest) throws(StateError) -> [String: Value] {
    var facts: [String: Value] = [:]
    let app = request.appKey
    if let replyId = request.replyId {
      facts["history.earlier_requests"] = .number(
        Double(try store.requestCount(transactionId: replyId, app: app, before: request.receivedAt))
      )
    }
    let refunds = try request.customer.map { customer throws(StateError) in
      try store.refundCount(customer: customer, app: app, before: request.receivedAt)
    }
    facts["history.earlier_refunds"] = .number(Double(refunds ?? 0))
    return facts
  }
}
