import Foundation
import ReckonAppStore
import ReckonEngine
import ReckonHTTP
import ReckonState
import ReckonSupport

/// `reckon serve` as a library: the HTTP listener with the webhook routes, the sender, the
/// retry of undecided requests, policy hot reload and, with `state.keepDays`, pruning of the
/// state database, all in one process. `shutdown()` stops
/// accepting, lets in-flight requests finish, then stops the background loops.
public final class WebhookServer: @unchecked Sendable {
  /// How often the background loops run.
  public struct Intervals: Sendable {
    /// How often policy files are checked for changes.
    public var policyPoll: Double = 1
    /// How often undecided requests are retried.
    public var retry: Double = 30
    /// How often the sender looks for newly due entries.
    public var senderPoll: Double = 0.25
    /// How long after start the state database is first pruned (with `state.keepDays`): not
    /// while a service starting up is busiest.
    public var firstPrune: Double = 60
    /// How long after one prune ends the next begins.
    public var prune: Double = 86_400
    /// How often the lead on the once-only work is checked, and taken when free: how soon
    /// another instance takes over from one that died.
    public var leadership: Double = 1
    /// How often the gauges `/healthz` and `/metrics` show are read from the state.
    public var gauges: Double = 1

    /// The defaults: policies every second, retries every 30 s, the sender every 250 ms,
    /// pruning a minute after start and then daily, the lead checked every second.
    public init() {}

    /// The intervals of the service's own loops.
    var loops: ReckonService.Intervals {
      var loops = ReckonService.Intervals()
      loops.policyPoll = policyPoll
      loops.retry = retry
      loops.senderPoll = senderPoll
      loops.firstPrune = firstPrune
      loops.prune = prune
      loops.leadership = leadership
      return loops
    }
  }

  /// The service behind the webhook.
  public let service: ReckonService
  /// The metrics `/metrics` shows.
  public let metrics: ReckonMetrics
  private let http: HTTPServer
  private let logger: JSONLogger
  private let loops = DispatchGroup()
  private let lock = NSLock()
  private var stopped = false
  /// The service's loops, cancelled at shutdown.
  private var running: Task<Void, Never>?
  private let failed: FailedLoops
  /// The lead on the state's once-only work (retrying undecided requests, reporting lapsed
  /// ones, pruning), which one of the instances sharing a state holds.
  private let leader: any LeaderLease
  /// The gauges `/healthz` and `/metrics` show, read off their request path.
  private let gauges: StateGaugeCache

  /// A server for `service` listening as `configuration` says (port 0 picks a free one).
  public init(
    service: ReckonService, configuration: ServerConfiguration, metrics: ReckonMetrics,
    logger: JSONLogger, readTimeout: Double = 10, googlePlayPath: String? = nil
  ) {
    self.service = service
    self.metrics = metrics
    self.logger = logger
    let failed = FailedLoops()
    self.failed = failed
    let leader = service.store.takeLeaderLease()
    self.leader = leader
    let gauges = StateGaugeCache(store: service.store)
    self.gauges = gauges
    let routes = WebhookRoutes(
      service: service, webhookPath: configuration.webhookPath, metrics: metrics,
      stoppedLoops: { [service] in failed.names + service.stoppedLoops },
      isLeader: { leader.isLeader }, gauges: gauges,
      googlePlayPath: googlePlayPath)
    http = HTTPServer(
      configuration: .init(configuration, readTimeout: readTimeout),
      refused: { refusal in
        service.report(
          .httpRefused(
            status: refusal.status, reason: QuotedText.cut(refusal.reason, to: 300), path: nil,
            count: refusal.count, client: refusal.client))
      },
      handler: { request in await routes.respond(to: request) })
  }

  /// The bound port, after `start()`.
  public var port: Int { http.port }

  /// Whether `shutdown()` was called.
  public var isStopped: Bool { lock.withLock { stopped } }

  /// Whether this instance does the state's once-only work now.
  public var isLeader: Bool { leader.isLeader }

  /// Listens, then runs the service's loops (`ReckonService.run()`: the sender, the retry
  /// loop, the policy watcher, pruning); returns the port. The retries and pruning run while
  /// this instance leads among those sharing the state. The sender runs holding `senderLock`
  /// (taken at start-up, so a second server refuses to start) or, without one, takes the lock
  /// itself, standing by while another holds it (`SenderEvent.standingBy`), the other loops
  /// running all the same.
  @discardableResult
  public func start(intervals: Intervals = Intervals(), senderLock: (any SenderLease)? = nil)
    throws(HTTPServerError) -> Int
  {
    // Read once before the first probe can come.
    gauges.refresh()
    startReadingGauges(every: intervals.gauges)
    let port = try http.start()
    // Known and said before this returns; the service's loop keeps it fresh.
    service.refreshLead(leader)
    loops.enter()
    let running = Task { [self, loops] in
      defer { loops.leave() }
      await runLoops(intervals.loops, senderLock: senderLock)
    }
    // A shutdown() that came while the task was being made found nothing to cancel.
    let stoppedMeanwhile = lock.withLock {
      self.running = running
      return stopped
    }
    if stoppedMeanwhile { running.cancel() }
    return port
  }

  /// The service's loops until `shutdown()`; while another sender holds the lock this one
  /// stands by, the other loops running all the same, and sends once it is free.
  private func runLoops(_ intervals: ReckonService.Intervals, senderLock: (any SenderLease)?)
    async
  {
    do {
      try await service.run(
        intervals: intervals, holding: senderLock, leader: leader, standby: true)
    } catch {
      logger.log("error", event: "loop_failed", "the sender loop stopped: \(error)")
      failed.add("sender")
      try? await service.run(intervals: intervals, sending: false, leader: leader)
    }
  }

  /// Re-reads every policy now (SIGHUP); a policy that fails `check` is refused. Undecided
  /// requests waiting out a retry's delay are due again at the next retry: a reload often
  /// follows fixing what made them fail.
  public func reloadPolicies() {
    service.reloadPolicies(force: true)
    try? service.store.makeRetriesDue()
  }

  /// Stops accepting, waits for in-flight requests, then stops the sender and the loops, all
  /// within `timeout` seconds together: what has not finished by then (a request waiting on a
  /// fact source that does not answer, a send under way) is left to the process's exit.
  /// Blocks: call it from a thread of your own, not an async task.
  public func shutdown(timeout: Double = 9) {
    let deadline = DispatchTime.now() + timeout
    http.shutdown(timeout: timeout)
    let running = lock.withLock {
      stopped = true
      return self.running
    }
    running?.cancel()
    _ = loops.wait(timeout: deadline)
    // At once for another instance, not when this one's session ends.
    leader.release()
    // Every request answered and send recorded is then in the state file itself, so a copy of
    // the file alone is complete after a clean stop.
    _ = try? service.store.checkpoint()
  }

  /// Whether every loop `start()` began has returned, waiting at most `seconds` for them.
  func loopsHaveEnded(within seconds: Double) -> Bool {
    loops.wait(timeout: .now() + seconds) == .success
  }

  /// `shutdown(timeout:)` from async code: the waiting happens on a GCD thread, so no
  /// cooperative thread (which the loops being stopped need) is blocked.
  public func stop(timeout: Double = 9) async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      DispatchQueue.global().async { [self] in
        shutdown(timeout: timeout)
        continuation.resume()
      }
    }
  }

  /// Reads the gauges every `seconds` on a thread of its own: the reads block, and the
  /// concurrency pool's threads answer the webhook.
  private func startReadingGauges(every seconds: Double) {
    loops.enter()
    let thread = Thread { [self, loops] in
      defer { loops.leave() }
      var next = Date().addingTimeInterval(seconds)
      while !isStopped {
        if Date() >= next {
          gauges.refresh()
          next = Date().addingTimeInterval(seconds)
        }
        Thread.sleep(forTimeInterval: min(0.1, max(0.01, seconds)))
      }
    }
    thread.name = "reckon-gauges"
    thread.start()
  }
}
