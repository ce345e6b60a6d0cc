import Foundation

/// A recorded CONSUMPTION_REQUEST that has no decision yet: a fact source failed, or the
/// process stopped between recording and deciding.
public struct UndecidedRequest: Hashable, Sendable {
  /// The request's id.
  public let requestId: Int64
  /// When it was received: the decision's `now`.
  public let receivedAt: Date
  /// The body exactly as received, to verify and decide again.
  public let rawNotification: Data
  /// How many retries failed before.
  public let retries: Int

  /// A undecided request from its parts.
  public init(requestId: Int64, receivedAt: Date, rawNotification: Data, retries: Int) {
    self.requestId = requestId
    self.receivedAt = receivedAt
    self.rawNotification = rawNotification
    self.retries = retries
  }
}
