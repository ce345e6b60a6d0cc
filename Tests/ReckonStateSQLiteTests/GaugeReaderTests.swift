import Foundation
import ReckonState
import Testing

@testable import ReckonStateSQLite

/// The gauges `/healthz` and `/metrics` show are read on a connection of their own: a reading
/// under way holds up no notification being recorded.
struct GaugeReaderTests {
  @Test func aWriteGoesThroughWhileTheGaugesAreBeingRead() throws {
    let store = try SQLiteStateStore(path: TestState.temporaryPath(), rules: .appStore)
    _ = try store.recordNotification(TestState.notification(transaction: "1"))
    let written = DispatchSemaphore(value: 0)
    let waited = try store.gaugeReader.read { connection throws(StateError) -> Bool in
      _ = try connection.query("SELECT COUNT(*) FROM requests")
      DispatchQueue.global().async {
        _ = try? store.recordNotification(TestState.notification(transaction: "2"))
        written.signal()
      }
      return written.wait(timeout: .now() + 5) == .success
    }
    #expect(waited, "the write waited for the reading of the gauges")
    #expect(try store.gauges(now: TestState.start).undecided == 2)
  }
}
