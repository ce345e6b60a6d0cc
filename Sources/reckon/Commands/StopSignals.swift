import Dispatch
import Foundation

/// SIGTERM and SIGINT (and optionally SIGHUP) turned into events on a queue of their own, so a
/// long-running command can finish what it is doing and stop instead of dying mid-write.
final class StopSignals: @unchecked Sendable {
  private let lock = NSLock()
  private var stopRequested = false
  private var stopHandled = false
  private var waiters: [CheckedContinuation<Void, Never>] = []
  private var sources: [any DispatchSourceSignal] = []

  /// Starts listening; `onStop` runs once, on the first SIGTERM or SIGINT; `onHangUp`, when
  /// given, runs on every SIGHUP (otherwise SIGHUP keeps its default).
  init(onStop: @escaping @Sendable () -> Void = {}, onHangUp: (@Sendable () -> Void)? = nil) {
    let queue = DispatchQueue(label: "reckon-signals")
    var numbers = [SIGTERM, SIGINT]
    if onHangUp != nil { numbers.append(SIGHUP) }
    let registered = DispatchGroup()
    for number in numbers {
      // libdispatch on Linux installs its own handler when the source is registered, later and
      // on its own thread; a SIGTERM or SIGINT ignored until then would be lost, and the run
      // would go on to its end. It keeps its default action instead, which stops the process.
      // A SIGHUP (reload) meanwhile is harmless to miss but must not stop a service.
      if number == SIGHUP { signal(number, SIG_IGN) }
      let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
      registered.enter()
      source.setRegistrationHandler { registered.leave() }
      source.setEventHandler { [self] in
        if number == SIGHUP {
          onHangUp?()
          return
        }
        guard requestStop() else { return }
        onStop()
        for waiter in handledStop() { waiter.resume() }
      }
      source.resume()
      sources.append(source)
    }
    // Returns once every signal is caught: a stop from here on runs `onStop`.
    _ = registered.wait(timeout: .now() + 5)
  }

  deinit { for source in sources { source.cancel() } }

  /// Whether SIGTERM or SIGINT has arrived.
  var isStopped: Bool { lock.withLock { stopRequested } }

  /// Returns once SIGTERM or SIGINT has arrived and `onStop` has run.
  func wait() async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      let handled = lock.withLock {
        if !stopHandled { waiters.append(continuation) }
        return stopHandled
      }
      if handled { continuation.resume() }
    }
  }

  /// True the first time only.
  private func requestStop() -> Bool {
    lock.withLock {
      defer { stopRequested = true }
      return !stopRequested
    }
  }

  private func handledStop() -> [CheckedContinuation<Void, Never>] {
    lock.withLock {
      stopHandled = true
      defer { waiters = [] }
      return waiters
    }
  }
}
