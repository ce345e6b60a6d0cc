import Dispatch
import Foundation

/// Runs the state database's WAL checkpoints on a queue of its own, on a second connection, so
/// no request waits for one. SQLite's automatic checkpoint runs inside whichever commit crosses
/// the threshold, and with `synchronous=NORMAL` that is where the fsyncs happen: one request in a
/// few hundred waited for them, which set the webhook's p99. A checkpoint changes nothing about
/// durability (commits are as durable as the WAL makes them either way); it only moves pages from
/// the WAL into the database file. The writer's own automatic checkpoint stays on at a higher
/// threshold, so the WAL stays bounded even if this falls behind.
///
/// The WAL starts over from its first page only when a write begins with every page of it
/// copied. Under steady writes some commit always lands while a background checkpoint runs, so
/// that never happened, and the WAL grew until a request's own commit copied `fallbackPages`
/// pages (15–20 ms). So once a background checkpoint finds `catchUpPages` or more in the WAL,
/// the writer, on its next commit, copies the pages committed meanwhile itself
/// (`catchUpIsDue`), and the commit after that starts the WAL over. That copy costs the request
/// two fsyncs (3–5 ms here), so it is done only every few checkpoints, for well under 1% of
/// requests.
final class WALCheckpointer: @unchecked Sendable {
  /// Pages in the WAL after which the writing connection checkpoints by itself.
  static let fallbackPages = 8_000
  /// Pages in the WAL from which the writer catches up after a background checkpoint.
  static let catchUpPages = fallbackPages / 4

  private let path: String
  private let synchronous: String
  private let every: Int
  private let queue = DispatchQueue(label: "reckon-state-checkpoint", qos: .utility)
  private let lock = NSLock()
  // Guarded by `lock`.
  private var commits = 0
  private var scheduled = false
  private var completed = 0
  private var catchUp = false
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

  /// Whether a background checkpoint has found `catchUpPages` or more in the WAL since the last
  /// call: the writer should then copy the pages committed while it ran (a PASSIVE checkpoint on
  /// its own connection, a few pages), so that its next commit starts the WAL over.
  func catchUpIsDue() -> Bool {
    lock.withLock {
      defer { catchUp = false }
      return catchUp
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
      // Its row: whether it was blocked, the pages in the WAL, the pages copied.
      let result = try connection?.query("PRAGMA wal_checkpoint(PASSIVE)").first
      if let pages = result?.int(1), pages >= WALCheckpointer.catchUpPages {
        lock.withLock { catchUp = true }
      }
    } catch {
      // The writer's own automatic checkpoint (at `fallbackPages`) still bounds the WAL.
      connection = nil
    }
  }
}
