import Dispatch
import Foundation
import ReckonPolicy
import ReckonSQLite
import ReckonSupport
import Synchronization
import Testing

@testable import ReckonFacts

/// SQLite lookups run on the source's blocking-work queue only when the file is locked.
struct SQLiteLookupQueueTests {
  /// More lookups than the pool has threads, each waiting on a database an exclusive transaction
  /// locks with a long busy timeout: the source's few run together off the pool, the rest wait
  /// their turn, and a task started meanwhile runs before any lookup gives up. Were lookups made
  /// on the pool, they would hold every thread of it until the busy timeout passed.
  @Test func lookupsWaitingOnALockedDatabaseLeaveOtherWorkRunning() async throws {
    let path = try Fixtures.database(
      "PRAGMA journal_mode = DELETE; CREATE TABLE t (id TEXT, n INTEGER); INSERT INTO t VALUES ('1', 1);"
    )
    let query = #"SELECT n AS "usage.consumed_units" FROM t WHERE id = :transaction_id"#
    // Long, so that a loaded machine running every test at once still probes in time.
    let source = try SQLiteFactSource(
      name: "db", settings: .init(path: path, queries: ["q": query], busyTimeoutMs: 30_000),
      schema: .standard)
    let writer = try SQLiteDatabase(path: path, options: [.readWrite, .noMutex])
    try writer.execute("BEGIN EXCLUSIVE; UPDATE t SET n = 2;")
    let counts = Counts()
    let count = max(8, ProcessInfo.processInfo.activeProcessorCount * 2)
    let lookups = (0..<count).map { _ in
      Task.detached {
        defer { counts.answered.add(1, ordering: .sequentiallyConsistent) }
        return try await source.facts(for: Fixtures.keys(transaction: "1"))
      }
    }
    await Self.waitOffPool { source.runningLookups == SQLiteFactSource.concurrentLookups }
    let probe = await Task.detached {
      (source.runningLookups, counts.answered.load(ordering: .sequentiallyConsistent))
    }.value
    #expect(probe.0 == SQLiteFactSource.concurrentLookups, "lookups under way together")
    #expect(probe.1 == 0, "a task waited for a lookup to give up")

    try writer.execute("COMMIT;")
    for lookup in lookups {
      #expect(try await lookup.value == ["usage.consumed_units": .number(2)])
    }
    // Those that started before the lock was released found it held and went off the pool.
    #expect(source.offPoolLookups >= SQLiteFactSource.concurrentLookups)
  }

  /// A file nobody has locked is read on the calling thread: handing each lookup to another
  /// thread and back cost more than the lookup.
  @Test func lookupsOfAnUnlockedDatabaseStayOnTheCallersThread() async throws {
    let path = try Fixtures.database(
      "PRAGMA journal_mode = DELETE; CREATE TABLE t (id TEXT, n INTEGER); INSERT INTO t VALUES ('1', 1);"
    )
    let query = #"SELECT n AS "usage.consumed_units" FROM t WHERE id = :transaction_id"#
    let source = try SQLiteFactSource(
      name: "db", settings: .init(path: path, queries: ["q": query], busyTimeoutMs: 30_000),
      schema: .standard)
    for _ in 0..<10 {
      #expect(
        try await source.facts(for: Fixtures.keys(transaction: "1"))
          == ["usage.consumed_units": .number(1)])
    }
    #expect(source.offPoolLookups == 0)
  }

  /// Polls `condition` on a thread of its own until it holds or 25 s pass, so a busy pool does
  /// not keep the test from looking.
  static func waitOffPool(_ condition: @escaping @Sendable () -> Bool) async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      DispatchQueue(label: "sqlite-lookup-queue-test").async {
        let deadline = Date().addingTimeInterval(25)
        while !condition(), Date() < deadline { usleep(5_000) }
        continuation.resume()
      }
    }
  }
}

/// Counts lookups answered.
private final class Counts: Sendable {
  let answered = Atomic<Int>(0)
}
