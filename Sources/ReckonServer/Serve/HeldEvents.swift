import Foundation
import ReckonEngine

/// Log lines `reckon serve` writes while it starts, held until it is bound: a start refused (an
/// address in use) is then one plain line, not `policy_live` and `startup` JSON lines for a
/// service that never ran. Held lines are written in order when `release()` is called, and
/// dropped with the process otherwise.
package final class HeldEvents: @unchecked Sendable {
  private let lock = NSLock()
  private let logger: JSONLogger
  private var held: [@Sendable (JSONLogger) -> Void]? = []

  package init(logger: JSONLogger) {
    self.logger = logger
  }

  /// Logs `event`, or holds it until `release()`.
  package func log(_ event: ReckonEvent) {
    write { $0.log(event) }
  }

  /// Logs a warning of the start-up, or holds it until `release()`.
  package func warn(_ message: String) {
    write { $0.log("warning", event: "startup", message) }
  }

  /// Writes what was held, then every line as it comes.
  package func release() {
    // Written under the lock, so a line that comes meanwhile waits and stays in order.
    lock.withLock {
      for line in held ?? [] { line(logger) }
      held = nil
    }
  }

  private func write(_ line: @escaping @Sendable (JSONLogger) -> Void) {
    let now = lock.withLock {
      guard held != nil else { return true }
      held?.append(line)
      return false
    }
    if now { line(logger) }
  }
}
