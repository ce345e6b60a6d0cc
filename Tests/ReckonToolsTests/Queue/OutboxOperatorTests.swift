import Foundation
import ReckonEngine
import ReckonState
import ReckonTestSupport
import ReckonTools
import Testing

/// An operator's commands on the outbox, as `reckon queue` gives them.
struct OutboxOperatorTests {
  let start = StateSamples.start

  func outbox() throws -> (OutboxOperator, any StateStore) {
    let store = try StateSamples.store()
    return (OutboxOperator(store: store, user: "ops"), store)
  }

  @Test func aListThatFillsItsLimitSaysHowManyMatchInAll() throws {
    let (outbox, store) = try outbox()
    for transaction in ["1", "2", "3"] {
      _ = try StateSamples.enqueued(in: store, transaction: transaction, at: start)
    }
    let page = try outbox.list(states: [], limit: 2, now: start)
    #expect(page.entries.count == 2)
    #expect(page.total == 3)
    #expect(try outbox.list(states: [], limit: 3, now: start).total == nil)
  }

  @Test func anEmptyStateSaysHowManyAreInOthers() throws {
    let (outbox, store) = try outbox()
    _ = try StateSamples.enqueued(in: store, at: start)
    let page = try outbox.list(states: ["failed"], limit: 10, now: start)
    #expect(page.entries.isEmpty)
    #expect(page.inOtherStates == 1)
  }

  @Test func entriesPastTheirDeadlineAreCountedOverdue() throws {
    let (outbox, store) = try outbox()
    _ = try StateSamples.enqueued(in: store, at: start)
    let later = start.addingTimeInterval(13 * 3_600)
    #expect(try outbox.list(states: [], limit: 10, now: later).overdue == 1)
    #expect(try outbox.list(states: [], limit: 10, now: start).overdue == 0)
  }

  @Test func anApprovedHeldEntryIsPendingAndItsHistoryNamesWhoApprovedIt() throws {
    let (outbox, store) = try outbox()
    let held = try StateSamples.enqueued(in: store, at: start, hold: true)
    let approved = try outbox.apply(.approve, to: held.id, now: start)
    #expect(approved.state == .pending(notBefore: start))
    let history = try store.attempts(entryId: held.id)
    #expect(history.last?.errorMessage == "approved with reckon queue by ops")
  }

  @Test func aSetChangesTheBodyAndRecordsTheAssignments() throws {
    let (outbox, store) = try outbox()
    let entry = try StateSamples.enqueued(in: store, at: start)
    let words = ["refundPreference=DECLINE"]
    let edited = try outbox.apply(
      .set(try ConsumptionBodyEdit(assignments: words), assignments: words), to: entry.id,
      now: start)
    #expect(String(decoding: edited.body, as: UTF8.self).contains(#""refundPreference":"DECLINE""#))
    #expect(
      try store.attempts(entryId: entry.id).last?.errorMessage
        == "set refundPreference=DECLINE with reckon queue by ops")
  }

  @Test func aPendingEntryOfAPausedAppIsNotedAsWaitingForThePause() throws {
    let (outbox, store) = try outbox()
    let entry = try StateSamples.enqueued(in: store, at: start)
    #expect(outbox.holdNote(for: entry, now: start) == nil)
    try store.pause(StateSamples.appKey, until: start + 600, reason: "HTTP 401")
    let note = try #require(outbox.holdNote(for: entry, now: start))
    #expect(note.hasPrefix("note: sending for com.example (Production) is paused"))
    #expect(note.contains("HTTP 401"))
  }
}
