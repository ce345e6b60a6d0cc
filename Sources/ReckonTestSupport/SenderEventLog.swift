import Foundation
import ReckonEngine

/// Collects sender events.
public final class SenderEventLog: @unchecked Sendable {
  private let lock = NSLock()
  private var events: [SenderEvent] = []

  /// An empty log.
  public init() {}

  /// Adds an event: the handler to give a sender.
  public var append: @Sendable (SenderEvent) -> Void {
    { [self] event in lock.withLock { events.append(event) } }
  }

  /// Every event so far.
  public var all: [SenderEvent] { lock.withLock { events } }
  /// Each event as `level: description`.
  public var lines: [String] { all.map { "\($0.level): \($0)" } }
}
