import Dispatch
import Foundation
import ReckonPolicy
import ReckonSQLite
import Synchronization
import Testing

@testable import ReckonFacts

/// Blocking work runs off the Swift concurrency pool, a bounded number at a time.
struct BlockingWorkQueueTests {
  @Test func noMoreThanTheWidthRunAtOnceAndEveryResultComesBack() async throws {
    let queue = BlockingWorkQueue(label: "width-test", width: 3)
    let counts = Counts()
    let results = try await withThrowingTaskGroup(of: Int.self) { group in
      for index in 0..<24 {
        group.addTask {
          try await queue.run {
            let now = counts.running.add(1, ordering: .sequentiallyConsistent).newValue
            _ = counts.most.max(now, ordering: .sequentiallyConsistent)
            usleep(5_000)
            counts.running.subtract(1, ordering: .sequentiallyConsistent)
            return index
          }
        }
      }
      return try await group.reduce(into: []) { $0.append($1) }
    }
    #expect(results.sorted() == Array(0..<24))
    // Never more than the width; more than one, or the queue would not run them side by side.
    #expect((2...3).contains(counts.most.load(ordering: .sequentiallyConsistent)))
    // A lane is freed just after its last result is handed back, so this may take a moment.
    await Self.waitOffPool { queue.runningCount == 0 }
    #expect(queue.runningCount == 0)
  }

  @Test func theWorksErrorReachesTheCaller() async {
    let queue = BlockingWorkQueue(label: "error-test", width: 1)
    await #expect(throws: Broke()) { try await queue.run { () throws -> Int in throw Broke() } }
  }

  /// As `Deadline` cancels work that ran out of time: what still waits behind a blocked piece is
  /// dropped, not run once the block clears.
  @Test func workCancelledBeforeItsTurnNeverRuns() async throws {
    let queue = BlockingWorkQueue(label: "cancel-test", width: 1)
    let release = DispatchSemaphore(value: 0)
    let counts = Counts()
    let blocker = Task.detached { try await queue.run { release.wait() } }
    await Self.waitOffPool { queue.runningCount == 1 }
    let waiter = Task.detached {
      try await queue.run { counts.ran.store(true, ordering: .sequentiallyConsistent) }
    }
    // Cancelled once queued, so the test is of the queue dropping it, not of a check on entry.
    await Self.waitOffPool { queue.waitingCount == 1 }
    #expect(queue.waitingCount == 1)
    waiter.cancel()
    release.signal()
    try await blocker.value
    await #expect(throws: CancellationError.self) { try await waiter.value }
    let workRan = counts.ran.load(ordering: .sequentiallyConsistent)
    #expect(!workRan)
  }

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
      DispatchQueue(label: "blocking-work-queue-test").async {
        let deadline = Date().addingTimeInterval(25)
        while !condition(), Date() < deadline { usleep(5_000) }
        continuation.resume()
      }
    }
  }
}

/// Counters shared with the work under test.
private final class Counts: Sendable {
  let running = Atomic<Int>(0)
  let most = Atomic<Int>(0)
  let answered = Atomic<Int>(0)
  let ran = Atomic<Bool>(false)
}

private struct Broke: Error, Equatable {}
