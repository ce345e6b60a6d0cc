import Dispatch
import Foundation

/// Runs blocking work (a database call that may wait out a busy timeout) on GCD threads outside
/// the Swift concurrency pool, at most `width` at a time, and awaits it without holding a pool
/// thread. The pool has one thread per core: work that blocks on it stops everything else,
/// including the webhook answering Apple.
///
/// Work waiting for a turn is dropped when its task is cancelled first (as `Deadline` cancels
/// work that ran out of time), so a backlog behind a locked file does not run after nobody wants it.
package final class BlockingWorkQueue: @unchecked Sendable {
  /// How many pieces of work may run at once.
  package let width: Int
  /// One serial queue per piece of work that may run at once: GCD gives each serial queue a
  /// thread of its own, where a concurrent queue on Linux gets threads only as fast as its
  /// monitor notices the others blocked.
  private let lanes: [DispatchQueue]
  private let lock = NSLock()
  private var freeLanes: [Int]
  /// Work waiting for a turn, first from `waitingStart` on.
  private var waiting: [Job] = []
  private var waitingStart = 0

  /// Runs the work, or, when its task was cancelled before its turn, only says so.
  private typealias Job = @Sendable () -> Void

  /// A queue named `label` running at most `width` pieces of work at once.
  package init(label: String, width: Int) {
    precondition(width > 0, "a queue must run something")
    self.width = width
    lanes = (0..<width).map { DispatchQueue(label: "\(label).\($0)") }
    freeLanes = Array((0..<width).reversed())
  }

  /// How many pieces of work are running now (for tests).
  package var runningCount: Int { lock.withLock { width - freeLanes.count } }

  /// How many pieces of work wait for a turn (for tests).
  package var waitingCount: Int { lock.withLock { waiting.count - waitingStart } }

  /// `work`'s result, once it has run on one of the queue's threads; `CancellationError` if the
  /// task is cancelled before the work started.
  package func run<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    let cancelled = CancelFlag()
    return try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation {
        (continuation: CheckedContinuation<T, any Error>) in
        submit {
          guard !cancelled.isSet else {
            continuation.resume(throwing: CancellationError())
            return
          }
          continuation.resume(with: Result { try work() })
        }
      }
    } onCancel: {
      cancelled.set()
    }
  }

  private func submit(_ job: @escaping Job) {
    let lane = lock.withLock { () -> Int? in
      guard let lane = freeLanes.popLast() else {
        waiting.append(job)
        return nil
      }
      return lane
    }
    if let lane { lanes[lane].async { self.drain(lane, starting: job) } }
  }

  /// Runs `job`, then whatever waits, on `lane`, until nothing does.
  private func drain(_ lane: Int, starting job: @escaping Job) {
    var next: Job? = job
    while let job = next {
      job()
      next = lock.withLock { () -> Job? in
        guard waitingStart < waiting.count else {
          waiting.removeAll(keepingCapacity: true)
          waitingStart = 0
          freeLanes.append(lane)
          return nil
        }
        let first = waiting[waitingStart]
        waitingStart += 1
        // A backlog that never empties is compacted now and then rather than kept whole.
        if waitingStart >= 256, waitingStart * 2 >= waiting.count {
          waiting.removeFirst(waitingStart)
          waitingStart = 0
        }
        return first
      }
    }
  }
}

/// A flag set once from any thread.
private final class CancelFlag: @unchecked Sendable {
  private let lock = NSLock()
  private var value = false

  var isSet: Bool { lock.withLock { value } }

  func set() { lock.withLock { value = true } }
}
