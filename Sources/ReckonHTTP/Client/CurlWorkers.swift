import Foundation

/// Up to `maximum` dedicated threads, each with its own easy handle, taking requests in arrival
/// order. curl_easy_perform blocks, so it runs here and never on Swift's cooperative pool;
/// threads start on demand and live until `stop()`.
final class CurlWorkers: @unchecked Sendable {
  private let maximum: Int
  private let timeout: TimeInterval
  private let limit: Int
  private let condition = NSCondition()
  private var queue: [CurlJob] = []
  private var threads = 0
  private var idle = 0
  private var stopped = false

  init(maximum: Int, timeout: TimeInterval, limit: Int) {
    self.maximum = max(1, maximum)
    self.timeout = timeout
    self.limit = limit
  }

  /// Queues `job`, starting another thread when more jobs wait than threads are idle.
  func submit(_ job: CurlJob) {
    condition.lock()
    queue.append(job)
    let spawn = queue.count > idle && threads < maximum
    if spawn { threads += 1 }
    condition.signal()
    condition.unlock()
    guard spawn else { return }
    let thread = Thread { [self] in run() }
    thread.name = "reckon-curl"
    thread.start()
  }

  /// Lets the threads finish what is queued and exit.
  func stop() {
    condition.lock()
    stopped = true
    condition.broadcast()
    condition.unlock()
  }

  private func run() {
    let handle = CurlEasyHandle()
    var finished: (job: CurlJob, outcome: CurlJob.Outcome)?
    while let job = next(answering: finished) {
      guard !job.isCancelled else {
        finished = (job, .failure(.cancelled))
        continue
      }
      guard let handle else {
        finished = (job, .failure(.notSent("curl_easy_init failed")))
        continue
      }
      let left = job.request.deadline.map { min(timeout, $0.timeIntervalSinceNow) } ?? timeout
      guard left > 0 else {
        finished = (job, .failure(.notSent("not started: its deadline had passed")))
        continue
      }
      finished = (job, handle.perform(job, timeout: left, limit: limit))
    }
  }

  /// Answers the previous job, then waits for the next; nil once stopped and drained (the thread
  /// then ends). The answer goes out under the lock, after this thread counts as idle: a caller
  /// whose next request follows at once then finds this thread, and its handle's open
  /// connection, instead of starting a new thread with a new connection.
  private func next(answering finished: (job: CurlJob, outcome: CurlJob.Outcome)?) -> CurlJob? {
    condition.lock()
    defer { condition.unlock() }
    idle += 1
    if let finished { finished.job.finish(finished.outcome) }
    while queue.isEmpty && !stopped { condition.wait() }
    idle -= 1
    guard !queue.isEmpty else {
      threads -= 1
      return nil
    }
    return queue.removeFirst()
  }
}
