import Foundation
import Testing

@testable import ReckonStateSQLite

/// The webhook's store checkpoints its WAL on a queue of its own, and nothing is lost by it.
@Suite struct WALCheckpointerTests {
  @Test func checkpointsRunInTheBackgroundAndEveryRecordStays() async throws {
    let path = TestState.temporaryPath()
    let store = try SQLiteStateStore(path: path, rules: .appStore, backgroundCheckpoints: true)
    let checkpointer = try #require(store.checkpointer)
    for index in 0..<600 {
      let request = try store.recordNotification(
        TestState.notification(transaction: String(index), at: TestState.start)
      ).requestId
      _ = try store.recordDecision(
        TestState.decision(), requestId: request,
        enqueue: TestState.enqueue(transaction: String(index)))
    }
    // 1,200 commits at one checkpoint per 256: the queue has run several by the time it is drained.
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      checkpointer.afterPending { continuation.resume() }
    }
    #expect(checkpointer.checkpointsRun >= 2)
    // Pages reached the database file itself, not only the WAL.
    let size = try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int ?? 0
    #expect(size > 100_000)
    let reopened = try SQLiteStateStore(path: path, rules: .appStore)
    #expect(try reopened.requestCount(transactionId: "599", before: .distantFuture) == 1)
    #expect(try reopened.requestCount(transactionId: "0", before: .distantFuture) == 1)
  }

  @Test func aPlainStoreHasNoBackgroundCheckpointer() throws {
    #expect(try TestState.store().checkpointer == nil)
  }
}
