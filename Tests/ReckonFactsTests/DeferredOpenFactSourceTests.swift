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
  /// an exclusive transaction with a long busy timeout: every attempt is under way together, and
  /// a task started meanwhile runs before any of them gives up. Were the attempts made on the
  /// pool, at most one per thread could be under way, and nothing else would run until one gave up.
  @Test func anOpenWaitingOnALockedDatabaseLeavesOtherWorkRunning() async throws {
    let path = try Fixtures.database(
      "PRAGMA journal_mode = DELETE; CREATE TABLE t (id TEXT, n INTEGER); INSERT INTO t VALUES ('1', 1);"
    )
    let writer = try SQLiteDatabase(path: path, options: [.readWrite, .noMutex])
    try writer.execute("BEGIN EXCLUSIVE; UPDATE t SET n = 2;")
    let query = #"SELECT n AS "usage.consumed_units" FROM t WHERE id = :transaction_id"#
    // Long, so that a loaded machine running every test at once still probes in time.
    let settings = SQLiteFactSource.Settings(
      path: path, queries: ["q": query], busyTimeoutMs: 30_000)
    let attempts = Atomic<Int>(0)
    let givenUp = Atomic<Int>(0)
    let count = max(8, ProcessInfo.processInfo.activeProcessorCount * 2)
    let sources = (0..<count).map { index in
      DeferredOpenFactSource(
        name: "db\(index)", problem: ConfigurationError("path", "locked"),
        open: { () throws(FactSourceSetup.OpenFailure) in
          attempts.add(1, ordering: .sequentiallyConsistent)
          do throws(SQLiteFactSourceError) {
            return try SQLiteFactSource(name: "db\(index)", settings: settings, schema: .standard)
          } catch {
            givenUp.add(1, ordering: .sequentiallyConsistent)
            throw .init(problem: ConfigurationError("path", error.description), isUnavailable: true)
          }
        })
    }
    let lookups = sources.map { source in
      Task.detached { try await source.facts(for: Fixtures.keys(transaction: "1")) }
    }
    // Waits off the pool until every attempt is under way, or the busy timeout has nearly passed.
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      DispatchQueue(label: "deferred-open-test").async {
        let deadline = Date().addingTimeInterval(25)
        while attempts.load(ordering: .sequentiallyConsistent) < count, Date() < deadline {
          usleep(10_000)
        }
        continuation.resume()
      }
    }
    let probe = await Task.detached {
      (
        attempts.load(ordering: .sequentiallyConsistent),
        givenUp.load(ordering: .sequentiallyConsistent)
      )
    }.value
    #expect(probe.0 == count, "attempts under way together")
    #expect(probe.1 == 0, "a task waited for an open to give up")

    try writer.execute("ROLLBACK;")
    for lookup in lookups {
      #expect(try await lookup.value == ["usage.consumed_units": .number(1)])
    }
  }
}
