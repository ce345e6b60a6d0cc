import Foundation

/// One thread that fires `Deadline`'s alarms. Scheduling and cancelling an alarm take a lock and
/// a dictionary entry; the thread sleeps until the earliest live alarm and is woken only when a
/// new alarm is due before it, so alarms cancelled long before their time (the usual case: the
/// work finished) cost no wake-up at all.
package final class DeadlineClock: @unchecked Sendable {
  /// An alarm's handle, for cancelling it.
  package struct Alarm: Hashable, Sendable {
    fileprivate let id: UInt64
  }

  /// The process's clock; its thread starts with the first alarm.
  package static let shared = DeadlineClock()

  private let condition = NSCondition()
  private var alarms: [UInt64: (due: ContinuousClock.Instant, fire: @Sendable () -> Void)] = [:]
  private var nextId: UInt64 = 0
  /// When the thread will next look, or nil while it waits for an alarm to exist.
  private var wakeAt: ContinuousClock.Instant?
  private var started = false

  /// Calls `fire` (on the clock's thread) once `delay` has passed, unless cancelled first.
  package func schedule(after delay: Duration, _ fire: @escaping @Sendable () -> Void) -> Alarm {
    let due = ContinuousClock.now.advanced(by: delay)
    condition.lock()
    defer { condition.unlock() }
    nextId += 1
    alarms[nextId] = (due, fire)
    if !started {
      started = true
      let thread = Thread { [self] in run() }
      thread.name = "reckon-deadline-clock"
      thread.start()
    } else if wakeAt.map({ due < $0 }) ?? true {
      condition.signal()
    }
    return Alarm(id: nextId)
  }

  /// Forgets the alarm; it never fires.
  package func cancel(_ alarm: Alarm) {
    condition.lock()
    alarms[alarm.id] = nil
    condition.unlock()
  }

  private func run() {
    while true {
      condition.lock()
      let now = ContinuousClock.now
      let due = alarms.filter { $0.value.due <= now }
      for id in due.keys { alarms[id] = nil }
      wakeAt = alarms.values.map(\.due).min()
      if due.isEmpty {
        if let wakeAt {
          // At most a second at a time: the wait is on the wall clock, which may jump.
          let wait = min(1, Self.seconds(wakeAt - now))
          _ = condition.wait(until: Date(timeIntervalSinceNow: wait))
        } else {
          condition.wait()
        }
      }
      condition.unlock()
      for alarm in due.values.sorted(by: { $0.due < $1.due }) { alarm.fire() }
    }
  }

  private static func seconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) * 1e-18
  }
}
