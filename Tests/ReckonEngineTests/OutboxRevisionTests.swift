import Foundation
import ReckonAppStore
import ReckonState
import Testing

@testable import ReckonEngine
@testable import ReckonStateSQLite

/// Two connections to one state database, as `reckon serve`'s sender and `reckon queue` in
/// another process: a write from a stale read is refused, never silently overwrites.
@Suite struct OutboxRevisionTests {
  static let editedBody = Data(
    #"{"customerConsented":true,"deliveryStatus":"DELIVERED","sampleContentProvided":true}"#.utf8)

  @Test func aSaveFromAStaleCopyIsRefusedAndWritesNothing() throws {
    let path = TestState.temporaryPath()
    let sender = try SQLiteStateStore(path: path, rules: .appStore)
    let operatorStore = try SQLiteStateStore(path: path, rules: .appStore)
    let id = try TestState.enqueued(in: sender).id
    var senderCopy = try sender.entry(id: id)
    var operatorCopy = try operatorStore.entry(id: id)

    guard case .send = senderCopy.poll(now: TestState.start) else {
      Issue.record("not sendable")
      return
    }
    try sender.save(&senderCopy, now: TestState.start)
    try operatorCopy.edit(body: Self.editedBody, now: TestState.start)
    #expect(throws: StateError.changedConcurrently(entry: id)) {
      try operatorStore.save(&operatorCopy, now: TestState.start)
    }
    let stored = try sender.entry(id: id)
    #expect(stored.state.name == "sending")
    #expect(stored.body == TestState.validBody)
    #expect(stored.revision == senderCopy.revision)
  }

  @Test func anOperatorEditRacingTheSendersClaimIsJudgedAgainstTheClaimedEntry() throws {
    let path = TestState.temporaryPath()
    let sender = try SQLiteStateStore(path: path, rules: .appStore)
    let operatorStore = try SQLiteStateStore(path: path, rules: .appStore)
    let id = try TestState.enqueued(in: sender, hold: true).id
    var senderCopy = try sender.entry(id: id)
    let release = TestState.start.addingTimeInterval(11 * 3_600)
    var runs = 0

    #expect(throws: OutboxCommandRefused.self) {
      try operatorStore.modifyEntry(id: id, now: release) {
        (entry: inout OutboxEntry) throws(OutboxCommandRefused) in
        runs += 1
        if runs == 1 {
          // The sender releases the held entry between the operator's read and write.
          guard case .send = senderCopy.poll(now: release) else { return }
          try? sender.save(&senderCopy, now: release)
        }
        try entry.edit(body: Self.editedBody, now: release)
      }
    }
    #expect(runs == 2)
    let stored = try sender.entry(id: id)
    #expect(stored.state.name == "sending")
    #expect(stored.body == TestState.validBody)
  }

  @Test func anOperatorEditWithoutARaceIsSavedAndBumpsTheRevision() throws {
    let store = try TestState.store()
    let entry = try TestState.enqueued(in: store, hold: true)
    let saved = try store.modifyEntry(id: entry.id, now: TestState.start) {
      (entry: inout OutboxEntry) throws(OutboxCommandRefused) in
      try entry.edit(body: Self.editedBody, now: TestState.start)
    }
    #expect(saved.revision == entry.revision + 1)
    #expect(try store.entry(id: entry.id).body == Self.editedBody)
    #expect(try store.entry(id: entry.id).revision == saved.revision)
  }
}
