/// Why one fact source gave no facts for a request: it failed, or it took longer than allowed.
public struct FactSourceFailure: Error, Hashable, Sendable, CustomStringConvertible {
  /// What went wrong.
  public enum Reason: Hashable, Sendable {
    /// The source did not answer within its timeout.
    case timedOut(after: Duration)
    /// The source threw; the error's description.
    case failed(String)
  }

  /// The source's name.
  public let source: String
  /// What went wrong.
  public let reason: Reason

  /// Creates a failure of `source`.
  public init(source: String, reason: Reason) {
    self.source = source
    self.reason = reason
  }

  /// Whether the source timed out (rather than failing outright).
  public var isTimeout: Bool {
    if case .timedOut = reason { true } else { false }
  }

  /// `app-db timed out after 2000 ms` or `app-db failed: ...`.
  public var description: String {
    switch reason {
    case .timedOut(let limit):
      let milliseconds =
        limit.components.seconds * 1_000 + limit.components.attoseconds / 1_000_000_000_000_000
      return "\(source) timed out after \(milliseconds) ms"
    case .failed(let message): return "\(source) failed: \(message)"
    }
  }
}

/// Some of a layered source's sources failed; thrown by `LayeredFactSource.facts(for:)`.
public struct FactSourceFailures: Error, Hashable, Sendable, CustomStringConvertible {
  /// Each failed source, in configured order.
  public let failures: [FactSourceFailure]

  /// Creates the error.
  public init(_ failures: [FactSourceFailure]) {
    self.failures = failures
  }

  /// The failures, separated by semicolons.
  public var description: String { failures.map(\.description).joined(separator: "; ") }
}
