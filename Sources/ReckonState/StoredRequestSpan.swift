import Foundation

/// How many requests a state database holds and when the first and last were received, so a
/// report over a date window that found none can say what the database does hold instead of
/// looking like a report of an empty database.
public struct StoredRequestSpan: Hashable, Sendable {
  /// The requests held.
  public let count: Int
  /// When the first was received; nil when there is none.
  public let first: Date?
  /// When the last was received; nil when there is none.
  public let last: Date?

  /// A span from its parts.
  public init(count: Int, first: Date?, last: Date?) {
    self.count = count
    self.first = first
    self.last = last
  }
}
