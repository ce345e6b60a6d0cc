import Foundation
import ReckonState
import Testing

/// What every backend gives the outcomes report per request: the summary recorded with it
/// (price, currency, reason, product type) instead of the notification, the request's
/// environment, the deciding policy's version and hash, and its outcomes with how the first
/// refund was made.
@Suite struct DecidedOutcomeConformanceTests {
  typealias Fixture = StateRecordsFixture

  static let summary = RequestSummary(
    price: 4_990, currency: "EUR", reason: "UNINTENDED_PURCHASE", productType: "consumable")

  @Test(arguments: StateBackend.all)
  func aSummarizedRequestComesWithItsSummaryAndWithoutItsNotification(_ backend: StateBackend)
    throws
  {
    let store = try backend.make()
    var record = Fixture.notification(transaction: "1")
    record.summary = Self.summary
    let id = try store.recordNotification(record).requestId
    _ = try store.recordDecision(Fixture.decision(), requestId: id, enqueue: nil, sentAt: nil)
    let decided = try #require(try store.decidedOutcomes(since: nil, until: nil).first)
    #expect(decided.summary == Self.summary)
    #expect(decided.rawNotification.isEmpty)
    #expect(decided.environment == "Production")
    #expect(decided.policyVersion == "1")
    #expect(decided.policySHA256 == String(repeating: "a", count: 64))
  }

  @Test(arguments: StateBackend.all)
  func aRequestRecordedWithoutASummaryComesWithItsNotification(_ backend: StateBackend) throws {
    let store = try backend.make()
    let record = Fixture.notification(transaction: "1")
    let id = try store.recordNotification(record).requestId
    _ = try store.recordDecision(Fixture.decision(), requestId: id, enqueue: nil, sentAt: nil)
    let decided = try #require(try store.decidedOutcomes(since: nil, until: nil).first)
    #expect(decided.summary == nil)
    #expect(decided.rawNotification == record.rawNotification)
  }

  /// A request with no price (a Google Play review) keeps its summary's other parts.
  @Test(arguments: StateBackend.all)
  func aSummaryWithoutAPriceReadsBackWithoutOne(_ backend: StateBackend) throws {
    let store = try backend.make()
    var record = Fixture.notification(transaction: "1")
    record.summary = RequestSummary(reason: nil, productType: "Google Play")
    let id = try store.recordNotification(record).requestId
    _ = try store.recordDecision(Fixture.decision(), requestId: id, enqueue: nil, sentAt: nil)
    let decided = try #require(try store.decidedOutcomes(since: nil, until: nil).first)
    #expect(decided.summary == RequestSummary(productType: "Google Play"))
  }

  /// The first refund's revocation is the one read, however many outcomes follow it.
  @Test(arguments: StateBackend.all)
  func theOutcomesComeInOrderWithTheFirstRefundsRevocation(_ backend: StateBackend) throws {
    let store = try backend.make()
    var record = Fixture.notification(transaction: "1")
    record.summary = Self.summary
    let id = try store.recordNotification(record).requestId
    _ = try store.recordDecision(Fixture.decision(), requestId: id, enqueue: nil, sentAt: nil)
    let types: [OutcomeType] = [.refund, .refundReversed, .refund]
    for (index, type) in types.enumerated() {
      let uuid = "outcome-\(index)"
      _ = try store.attachOutcome(
        type, notificationUUID: uuid, transactionId: "1", app: Fixture.appKey,
        originalTransactionId: nil, appAccountToken: nil,
        occurredAt: Fixture.start.addingTimeInterval(Double(60 + index)))
      if type == .refund {
        try store.recordRevocation(
          notificationUUID: uuid, type: index == 0 ? "REFUND_PRORATED" : "REFUND_FULL",
          percentage: index == 0 ? 25_000 : nil)
      }
    }
    let decided = try #require(try store.decidedOutcomes(since: nil, until: nil).first)
    #expect(decided.outcomes == types)
    #expect(decided.revocationType == "REFUND_PRORATED")
    #expect(decided.revocationPercentage == 25_000)
  }

  /// Outcomes are ordered by when they happened, not by when they were recorded: Apple's
  /// notifications can arrive out of order, and the first refund decides the money kept.
  @Test(arguments: StateBackend.all)
  func outcomesRecordedOutOfOrderComeInTheOrderTheyHappened(_ backend: StateBackend) throws {
    let store = try backend.make()
    var record = Fixture.notification(transaction: "1")
    record.summary = Self.summary
    let id = try store.recordNotification(record).requestId
    _ = try store.recordDecision(Fixture.decision(), requestId: id, enqueue: nil, sentAt: nil)
    let recorded: [(OutcomeType, seconds: Double, revocation: String?)] = [
      (.refundReversed, 300, nil), (.refundDeclined, 100, nil), (.refund, 200, "REFUND_PRORATED"),
    ]
    for (index, outcome) in recorded.enumerated() {
      let uuid = "late-\(index)"
      _ = try store.attachOutcome(
        outcome.0, notificationUUID: uuid, transactionId: "1", app: Fixture.appKey,
        originalTransactionId: nil, appAccountToken: nil,
        occurredAt: Fixture.start.addingTimeInterval(outcome.seconds))
      if let revocation = outcome.revocation {
        try store.recordRevocation(
          notificationUUID: uuid, type: revocation,
          percentage: revocation == "REFUND_PRORATED" ? 40_000 : nil)
      }
    }
    let decided = try #require(try store.decidedOutcomes(since: nil, until: nil).first)
    #expect(decided.outcomes == [.refundDeclined, .refund, .refundReversed])
    #expect(decided.revocationType == "REFUND_PRORATED")
    #expect(decided.revocationPercentage == 40_000)
  }

  /// A dry-run over the state shows each request's outcome: the store's first verdict after it.
  @Test(arguments: StateBackend.all)
  func theStoresVerdictsSayWhichOutcomeTheyAre(_ backend: StateBackend) throws {
    let store = try backend.make()
    _ = try store.recordNotification(Fixture.notification(transaction: "1"))
    _ = try store.recordNotification(Fixture.notification(transaction: "2"))
    for (transaction, type) in [("1", OutcomeType.refundDeclined), ("2", .refund)] {
      _ = try store.attachOutcome(
        type, notificationUUID: "verdict-\(transaction)", transactionId: transaction,
        app: Fixture.appKey, originalTransactionId: nil, appAccountToken: nil,
        occurredAt: Fixture.start.addingTimeInterval(3_600))
    }
    let verdicts = try store.storeVerdicts()
    #expect(verdicts.outcome("1", "Production", after: Fixture.start) == .refundDeclined)
    #expect(verdicts.outcome("2", "Production", after: Fixture.start) == .refund)
    #expect(
      verdicts.outcome("2", "Production", after: Fixture.start.addingTimeInterval(7_200)) == nil)
  }

  /// Reading row by row hands over the same requests, in the same order, as reading them whole.
  @Test(arguments: StateBackend.all)
  func readingOneByOneGivesWhatReadingWholeGives(_ backend: StateBackend) throws {
    let store = try backend.make()
    for (index, transaction) in ["3", "1", "2"].enumerated() {
      var record = Fixture.notification(
        transaction: transaction, at: Fixture.start.addingTimeInterval(Double(3 - index) * 60))
      record.summary = index == 1 ? nil : Self.summary
      let id = try store.recordNotification(record).requestId
      _ = try store.recordDecision(Fixture.decision(), requestId: id, enqueue: nil, sentAt: nil)
    }
    var streamed: [DecidedOutcome] = []
    try store.forEachDecidedOutcome(since: nil, until: nil) { streamed.append($0) }
    let whole = try store.decidedOutcomes(since: nil, until: nil)
    #expect(streamed == whole)
    #expect(streamed.map(\.receivedAt) == streamed.map(\.receivedAt).sorted())
    #expect(streamed.count == 3)
  }
}
