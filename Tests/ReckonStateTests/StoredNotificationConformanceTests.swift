import Foundation
import ReckonAppStore
import ReckonState
import ReckonTestSupport
import Testing

/// Every backend gives back a signed notification exactly as received, however it stores it
/// (the SQLite and PostgreSQL states pack it, their certificates kept once): re-verification,
/// dry-runs, reports and `reckon queue show` read those bytes.
@Suite struct StoredNotificationConformanceTests {
  typealias Fixture = StateRecordsFixture

  /// A notification as Apple signs them, for transaction `transaction`, received at `date`.
  static func signed(transaction: String = "1000", at date: Date = Fixture.start) throws
    -> NotificationRecord
  {
    var simulated = SimulatedNotification()
    simulated.transactionId = transaction
    simulated.signedDate = date
    var record = Fixture.notification(transaction: transaction, at: date)
    record.rawNotification = try AppleShapedNotification().body(simulated)
    return record
  }

  /// A decision whose explanation repeats its facts, as the engine's does.
  static func explained(at date: Date = Fixture.start) -> DecisionRecord {
    var decision = Fixture.decision(at: date)
    let facts = (0..<20).map { #"{"name":"fact.\#($0)","source":"app-db","value":"\#($0)"}"# }
    decision.factsJSON = Data("[\(facts.joined(separator: ","))]".utf8)
    decision.explanationJSON = Data(
      #"{"facts":[\#(facts.joined(separator: ","))],"rule":"delivered"}"#.utf8)
    return decision
  }

  @Test(arguments: StateBackend.all)
  func aSignedNotificationReadsBackByteForByteWhereverItIsRead(_ backend: StateBackend) throws {
    let store = try backend.make()
    let record = try Self.signed()
    let id = try store.recordNotification(record).requestId
    let later = Fixture.start.addingTimeInterval(60)
    #expect(
      try store.recordedNotification(requestId: id)?.rawNotification == record.rawNotification)
    #expect(
      try store.undecidedRequests(before: later, now: later, limit: 10).map(\.rawNotification)
        == [record.rawNotification])
    _ = try store.recordDecision(Self.explained(), requestId: id, enqueue: nil, sentAt: nil)
    #expect(
      try store.storedRequests(since: nil, until: nil).map(\.rawNotification)
        == [record.rawNotification])
    #expect(
      try store.decidedOutcomes(since: nil, until: nil).map(\.rawNotification)
        == [record.rawNotification])
  }

  @Test(arguments: StateBackend.all)
  func aDecisionsFactsAndExplanationReadBackAsWritten(_ backend: StateBackend) throws {
    let store = try backend.make()
    let id = try store.recordNotification(try Self.signed()).requestId
    let decision = Self.explained()
    let receipt = try store.recordDecision(
      decision, requestId: id, enqueue: Fixture.enqueue(), sentAt: nil)
    #expect(try store.decision(id: receipt.decisionId) == decision)
    #expect(
      try store.storedRequests(since: nil, until: nil).map(\.factsJSON) == [decision.factsJSON])
  }

  /// Pruning removes requests whose certificates the ones left share: those left read back whole.
  @Test(arguments: StateBackend.all)
  func theRequestsPruningLeavesReadBackByteForByte(_ backend: StateBackend) throws {
    let store = try backend.make()
    let old = try Self.signed(transaction: "1000")
    let kept = try Self.signed(
      transaction: "1001", at: Fixture.start.addingTimeInterval(30 * 86_400))
    let oldId = try store.recordNotification(old).requestId
    let keptId = try store.recordNotification(kept).requestId
    _ = try store.recordDecision(Self.explained(), requestId: oldId, enqueue: nil, sentAt: nil)
    _ = try store.recordDecision(
      Self.explained(at: kept.receivedAt), requestId: keptId, enqueue: nil, sentAt: nil)
    let removed = try store.prune(
      before: Fixture.start.addingTimeInterval(20 * 86_400),
      now: Fixture.start.addingTimeInterval(40 * 86_400))
    #expect(removed.notifications == 1 && removed.decisions == 1)
    #expect(try store.recordedNotification(requestId: oldId) == nil)
    #expect(
      try store.recordedNotification(requestId: keptId)?.rawNotification == kept.rawNotification)
    let again = try store.recordNotification(
      try Self.signed(transaction: "1002", at: Fixture.start.addingTimeInterval(31 * 86_400)))
    #expect(try store.recordedNotification(requestId: again.requestId) != nil)
  }
}
