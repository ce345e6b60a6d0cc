import Foundation
import ReckonSQLite
import Testing

@testable import ReckonStateSQLite

/// The checkpoint `reckon prune` ends with never waits for another process: emptying the log
/// holds the write lock until a reader elsewhere lets go, and a running service's writes time
/// out behind it meanwhile.
@Suite struct PassiveCheckpointTests {
  @Test func aCheckpointThatDoesNotWaitReturnsAtOnceBesideAnotherProcesssReader() throws {
    let path = TestState.temporaryPath()
    let store = try SQLiteStateStore(path: path, rules: .appStore)
    _ = try store.recordNotification(TestState.notification(transaction: "1"))
    let reader = try SQLiteDatabase(path: path, options: [.readOnly])
    try reader.execute("BEGIN")
    _ = try reader.query("SELECT count(*) FROM requests")
    _ = try store.recordNotification(TestState.notification(transaction: "2"))
    let started = Date()
    #expect(try store.checkpoint(waitingForOthers: false) == false)
    #expect(Date().timeIntervalSince(started) < 2, "it waited for the reader")
    try reader.execute("COMMIT")
    #expect(try store.checkpoint(waitingForOthers: false))
  }
}
