import Dispatch
import Foundation
import ReckonFacts
import ReckonSQLite
import Synchronization
import Testing

@testable import ReckonEngine

/// A source that could not be opened at start-up is opened again at a lookup, and that attempt,
/// which may wait out a long busy timeout, runs off the Swift concurrency pool: other work goes on.
struct DeferredOpenFactSourceTests {
  /// More sources than the pool has threads (one per core), each opening a database locked by
  /// an exclusive transaction with a long busy timeout: a task started meanwhile still runs at
  /// once, and every attempt is under way together.
  @Test func anOpenWaitingOnALockedDatabaseLeavesOtherWorkRunning() async throws {
    let path = try Fixtures.database(
      "PRAGMA journal_mode = DELETE; CREATE TABLE t (id TEXT, n INTEGER); INSERT INTO t VALUES ('1', 1);"
    )
    let writer = try SQLiteDatabase(path: path, options: [.readWrite, .noMutex])
    try writer.execute("BEGIN EXCLUSIVE; UPDATE t SET n = 2;")
    let query = #"SELECT n AS "usage.consumed_units" FROM t WHERE id = :transaction_id"#
    let settings = SQLiteFactSource.Settings(
      path: path, queries: ["q": query], busyTimeoutMs: 10_000)
    let attempts = Atomic<Int>(0)
    let count = max(8, ProcessInfo.processInfo.activeProcessorCount * 2)
    let sources = (0..<count).map { index in
      DeferredOpenFactSource(
        name: "db\(index)", problem: ConfigurationError("path", "locked"),
        open: { () throws(FactSourceSetup.OpenFailure) in
          attempts.add(1, ordering: .sequentiallyConsistent)
          do throws(SQLiteFactSourceError) {
            return try SQLiteFactSource(name: "db\(index)", settings: settings, schema: .standard)
          } catch {
            throw .init(problem: ConfigurationError("path", error.description), isUnavailable: true)
          }
        })
    }
    let started = ContinuousClock.now
    let lookups = sources.map { source in
      Task.detached { try await source.facts(for: Fixtures.keys(transaction: "1")) }
    }
    // Waits off the pool until every attempt is under way, or a few seconds have passed.
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      DispatchQueue(label: "deferred-open-test").async {
        let deadline = Date().addingTimeInterval(4)
        while attempts.load(ordering: .sequentiallyConsistent) < count, Date() < deadline {
          usleep(10_000)
        }
        continuation.resume()
      }
    }
    let probe = await Task.detached { ContinuousClock.now }.value
    #expect(probe - started < .seconds(8), "a task waited for the opens to give up")
    #expect(attempts.load(ordering: .sequentiallyConsistent) == count)

    try writer.execute("ROLLBACK;")
    for lookup in lookups {
      #expect(try await lookup.value == ["usage.consumed_units": .number(1)])
    }
  }
}
