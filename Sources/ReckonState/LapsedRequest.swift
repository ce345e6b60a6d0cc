import Foundation

/// A recorded CONSUMPTION_REQUEST whose deadline passed with no decision: Apple was never
/// answered.
public struct LapsedRequest: Hashable, Sendable {
  /// The request's id.
  public let requestId: Int64
  /// The transaction it asks about.
  public let transactionId: String
  /// The app's bundle id (a Google Play app's package name).
  public let bundleId: String
  /// The app's environment, as the state records it (`Production`, `GooglePlay`).
  public let environment: String
  /// The app as messages name it, `bundleId (Environment)`.
  public var app: String { "\(bundleId) (\(environment))" }
  /// When the reply was due.
  public let deadline: Date
  /// How many retries failed.
  public let retries: Int
  /// Why the last one failed, when one did.
  public let lastReason: String?

  /// A lapsed request with these details.
  public init(
    requestId: Int64, transactionId: String, bundleId: String, environment: String,
    deadline: Date, retries: Int, lastReason: String?
  ) {
    self.requestId = requestId
    self.transactionId = transactionId
    self.bundleId = bundleId
    self.environment = environment
    self.deadline = deadline
    self.retries = retries
    self.lastReason = lastReason
  }
}
