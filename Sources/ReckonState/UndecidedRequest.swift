import Foundation

/// A recorded request for a reply (a CONSUMPTION_REQUEST, a Google Play review) that has no decision yet: a fact source failed, or the
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
  /// The store environment it was recorded under (`Production`, `GooglePlay`): which store's
  /// pipeline decides it.
  public let environment: String

  /// A undecided request from its parts.
  public init(
    requestId: Int64, receivedAt: Date, rawNotification: Data, retries: Int,
    environment: String = ""
  ) {
    self.requestId = requestId
    self.receivedAt = receivedAt
    self.rawNotification = rawNotification
    self.retries = retries
    self.environment = environment
  }
}
