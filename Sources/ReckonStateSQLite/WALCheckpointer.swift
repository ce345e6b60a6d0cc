import Dispatch
import Foundation
import ReckonState

/// Runs the state database's WAL checkpoints on a queue of its own, on a second connection, so
/// no request waits for one. SQLite's automatic checkpoint runs inside whichever commit crosses
/// the threshold, and with `synchronous=NORMAL` that is where the fsyncs happen: one request in a
/// few hundred waited for them, which set the webhook's p99. A checkpoint changes nothing about
/// durability (commits are as durable as the WAL makes them either way); it only moves pages from
/// the WAL into the database file. The writer's own automatic checkpoint stays on at a higher
/// threshold, so the WAL stays bounded even if this falls behind.
final class WALCheckpointer: @unchecked Sendable {
  /// Pages in the WAL after which the writing connection checkpoints by itself.
  static let fallbackPages = 8_000

  private let path: String
  private let synchronous: String
  private let every: Int
  private let queue = DispatchQueue(label: "reckon-state-checkpoint", qos: .utility)
  private let lock = NSLock()
  // Guarded by `lock`.
  private var commits = 0
  private var scheduled = false
  private var completed = 0
  // Used only on `queue`.
  private var connection: SQLiteConnection?

  /// Checkpoints `path` in the background after every `every` commits. Each checkpoint costs two
  /// fsyncs and rewrites the pages changed since the last, many of them the same few index and
  /// table pages: at 64 commits the checkpoints took about 4% of the webhook's CPU.
  init(path: String, synchronous: String, every: Int = 256) {
    self.path = path
    self.synchronous = synchronous
    self.every = every
  }

  /// How many background checkpoints have run.
  var checkpointsRun: Int { lock.withLock { completed } }

  /// Counts one commit by the writing connection; schedules a checkpoint when enough have passed.
  func committed() {
    let due = lock.withLock { () -> Bool in
      commits += 1
      guard commits >= every, !scheduled else { return false }
      commits = 0
      scheduled = true
      return true
    }
    guard due else { return }
    queue.async { [self] in
      checkpoint()
      lock.withLock {
        scheduled = false
        completed += 1
      }
    }
  }

  /// Calls `done` once every checkpoint scheduled so far has finished.
  func afterPending(_ done: @escaping @Sendable () -> Void) {
    queue.async(execute: done)
  }

  private func checkpoint() {
    do {
      if connection == nil {
        connection = try SQLiteConnection(path: path, synchronous: synchronous)
      }
      // PASSIVE: copies what it can without waiting for, or blocking, the writer or readers.
      try connection?.query("PRAGMA wal_checkpoint(PASSIVE)")
    } catch {
      // The writer's own automatic checkpoint (at `fallbackPages`) still bounds the WAL.
      connection = nil
    }
  }
}
