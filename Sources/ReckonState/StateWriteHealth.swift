import Foundation

/// Whether the state database could be written lately: the first failure of a write since the
/// last one that committed (a full disk, a lock held past the busy timeout, a read-only file).
/// Readable without the store's lock, so `/healthz` answers while a write waits on the file.
public final class StateWriteHealth: @unchecked Sendable {
  /// Healthy until a write fails.
  public init() {}

  /// A write that failed, and every one after it until one committed.
  public struct Problem: Sendable, Equatable {
    /// When the first of them failed.
    public let since: Date
    /// SQLite's reason for the first of them.
    public let reason: String
  }

  private let lock = NSLock()
  private var problem: Problem?

  /// The write problem, nil while writes commit.
  public var current: Problem? { lock.withLock { problem } }

  /// Notes a failed write; the first failure's time and reason are kept until a write commits.
  package func failed(_ reason: String) {
    lock.withLock {
      if problem == nil { problem = Problem(since: Date(), reason: reason) }
    }
  }

  /// Notes a committed write.
  package func committed() {
    lock.withLock { problem = nil }
  }
}
