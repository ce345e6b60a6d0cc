import Foundation
import ReckonState

/// The right to send over a PostgreSQL state, which every instance sharing it has at once: each
/// claims the due entries it sends (`dueEntries`), and the pace and holds are rows they share,
/// so the lease only marks this instance's sender as running until it is released.
final class PostgresSenderLease: SenderLease, @unchecked Sendable {
  let address: PostgresAddress
  private let lock = NSLock()
  private var held = true

  init(address: PostgresAddress) {
    self.address = address
  }

  var name: String { "a sender of \(address)" }

  var isHeld: Bool { lock.withLock { held } }

  /// Other instances send too: a send found in flight may be theirs, and is taken over only
  /// once its lease lapses.
  var isExclusive: Bool { false }

  func release() {
    lock.withLock { held = false }
  }
}
