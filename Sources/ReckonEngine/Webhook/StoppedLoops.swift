import Synchronization

/// The names of `ReckonService.run()`'s loops that stopped on an error, for a health check.
final class StoppedLoops: Sendable {
  private let names = Mutex<[String]>([])

  /// Records that the loop `name` stopped.
  func add(_ name: String) {
    names.withLock { if !$0.contains(name) { $0.append(name) } }
  }

  /// Forgets every stopped loop: a new run starts them all again.
  func clear() {
    names.withLock { $0.removeAll() }
  }

  /// The loops that stopped, in the order they did.
  var all: [String] { names.withLock { $0 } }
}
