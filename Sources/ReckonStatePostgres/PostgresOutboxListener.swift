import CLibPQ
import Foundation
import ReckonState

#if canImport(Glibc)
  import Glibc
#endif

/// `LISTEN` on the outbox channel, on a connection and a thread of its own: every `NOTIFY` any
/// instance sends with a change (see `PostgresStateStore.notifyOutboxChange`) calls the handler.
/// A dropped connection is made again a second later; what was told meanwhile is found by the
/// sender's fallback poll.
final class PostgresOutboxListener: OutboxListener, @unchecked Sendable {
  /// The channel every instance notifies and listens on.
  static let channel = "reckon_outbox"

  private let address: PostgresAddress
  private let changed: @Sendable () -> Void
  private let lock = NSLock()
  private var stopped = false
  private var listening = false

  init(address: PostgresAddress, changed: @escaping @Sendable () -> Void) {
    self.address = address
    self.changed = changed
    let thread = Thread { [self] in run() }
    thread.name = "reckon-pg-listen"
    thread.start()
  }

  var isListening: Bool { lock.withLock { listening } }

  func stop() { lock.withLock { stopped = true } }

  private var isStopped: Bool { lock.withLock { stopped } }

  private func run() {
    while !isStopped {
      if let connection = try? PostgresConnection(address: address),
        (try? connection.execute("LISTEN \(Self.channel)")) != nil
      {
        lock.withLock { listening = true }
        // Told once on (re)connecting: changes made while not listening were missed.
        changed()
        connection.waitForNotifications(until: { [self] in isStopped }, changed)
        lock.withLock { listening = false }
      }
      if !isStopped { Thread.sleep(forTimeInterval: 1) }
    }
  }
}

extension PostgresConnection {
  /// Waits on the socket, calling `notified` for each notification, until `stop` says so
  /// (checked every 250 ms) or the connection fails.
  func waitForNotifications(until stop: () -> Bool, _ notified: () -> Void) {
    while !stop() {
      var descriptor = pollfd(fd: PQsocket(handle), events: Int16(POLLIN), revents: 0)
      guard descriptor.fd >= 0 else { return }
      let ready = poll(&descriptor, 1, 250)
      if ready < 0 && errno != EINTR { return }
      guard ready > 0 else { continue }
      guard PQconsumeInput(handle) == 1 else { return }
      var any = false
      while let notification = PQnotifies(handle) {
        PQfreemem(notification)
        any = true
      }
      if any { notified() }
    }
  }
}
