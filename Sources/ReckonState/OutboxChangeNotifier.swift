/// A state that tells its senders when entries become due without waiting (a reply enqueued,
/// an entry approved), from whichever instance changed it, so they need not poll often.
/// Polling stays the fallback: a change told while a listener was reconnecting is found at the
/// next poll.
public protocol OutboxChangeNotifier: Sendable {
  /// Starts calling `changed` on a thread of the backend's for each change any instance makes,
  /// until the returned listener stops.
  func listenForOutboxChanges(_ changed: @escaping @Sendable () -> Void) -> any OutboxListener
}

/// A running listener for outbox changes.
public protocol OutboxListener: Sendable {
  /// Whether changes are being heard now (false while it reconnects).
  var isListening: Bool { get }
  /// Stops listening; later calls do nothing.
  func stop()
}
