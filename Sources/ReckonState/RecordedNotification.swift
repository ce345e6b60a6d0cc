import Foundation

/// A notification as recorded: when it came and its body exactly as received.
public struct RecordedNotification: Hashable, Sendable {
  /// When it was received.
  public let receivedAt: Date
  /// The body exactly as received.
  public let rawNotification: Data

  /// A recorded notification from its parts.
  public init(receivedAt: Date, rawNotification: Data) {
    self.receivedAt = receivedAt
    self.rawNotification = rawNotification
  }
}
