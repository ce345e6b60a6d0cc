import Foundation

/// A task executor on threads of its own, so work that blocks a thread despite the contract (an
/// embedder's fact source calling a blocking client) blocks one of these, never the cooperative
/// pool the webhook answers on. Threads start as work arrives, up to `width`, and end after a
/// few idle seconds; work beyond `width` waits for a thread.
package final class ThreadExecutor: TaskExecutor, @unchecked Sendable {
  /// The most threads running work at once.
  package let width: Int
  private let label: String
  private let condition = NSCondition()
  private var jobs: [UnownedJob] = []
  private var first = 0
  private var threads = 0
  private var idleThreads = 0
  private var own: Set<UInt> = []

  /// How long a thread waits for work before it ends.
  static let idleSeconds = 5.0

  /// An executor of at most `width` threads named `label`.
  package init(label: String, width: Int) {
    precondition(width > 0, "an executor needs a thread")
    self.label = label
    self.width = width
  }

  /// Threads running work now, and pieces of work waiting for one (for tests).
  package var load: (busy: Int, waiting: Int) {
    condition.withLock { (threads - idleThreads, jobs.count - first) }
  }

  /// Whether the calling thread is one of the executor's (for tests).
  package var runsTheCurrentThread: Bool {
    let current = UInt(pthread_self())
    return condition.withLock { own.contains(current) }
  }

  package func enqueue(_ job: consuming ExecutorJob) {
    let job = UnownedJob(job)
    condition.lock()
    jobs.append(job)
    let spawn = idleThreads == 0 && threads < width
    if spawn { threads += 1 }
    condition.signal()
    condition.unlock()
    guard spawn else { return }
    let thread = Thread { [self] in work() }
    thread.name = label
    thread.start()
  }

  private func work() {
    let me = UInt(pthread_self())
    condition.lock()
    own.insert(me)
    while true {
      if first < jobs.count {
        let job = jobs[first]
        first += 1
        if first == jobs.count {
          jobs.removeAll(keepingCapacity: true)
          first = 0
        }
        condition.unlock()
        job.runSynchronously(on: asUnownedTaskExecutor())
        condition.lock()
        continue
      }
      idleThreads += 1
      let woken = condition.wait(until: Date(timeIntervalSinceNow: Self.idleSeconds))
      idleThreads -= 1
      if !woken, first == jobs.count {
        threads -= 1
        own.remove(me)
        condition.unlock()
        return
      }
    }
  }
}
