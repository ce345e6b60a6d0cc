import Foundation

/// The names of `WebhookServer`'s loops that stopped on an error, for `/healthz`.
final class FailedLoops: @unchecked Sendable {
  private let lock = NSLock()
  private var stopped: [String] = []

  /// Records that the loop `name` stopped.
  func add(_ name: String) {
    lock.withLock { stopped.append(name) }
  }

  /// The loops that stopped, in the order they did.
  var names: [String] { lock.withLock { stopped } }
}
