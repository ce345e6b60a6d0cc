import Foundation

/// A CONSUMPTION_REQUEST as stored, with the facts of its latest decision, for dry-runs.
public struct StoredRequest: Hashable, Sendable {
  /// The request's id.
  public let id: Int64
  /// The notification as received.
  public let rawNotification: Data
  /// When it was received.
  public let receivedAt: Date
  /// The latest decision's facts (JSON), if it was decided.
  public let factsJSON: Data?
  /// The notification's UUID as recorded (`google:MESSAGE_ID` for a Google Play review, whose
  /// stored notification holds no id of its own); nil where the store does not say.
  public let notificationUUID: String?

  /// A stored request from its parts.
  public init(
    id: Int64, rawNotification: Data, receivedAt: Date, factsJSON: Data?,
    notificationUUID: String? = nil
  ) {
    self.id = id
    self.rawNotification = rawNotification
    self.receivedAt = receivedAt
    self.factsJSON = factsJSON
    self.notificationUUID = notificationUUID
  }
}
