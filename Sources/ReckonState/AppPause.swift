import Foundation

/// Sending paused for one app because of a credentials problem.
public struct AppPause: Hashable, Sendable {
  /// The app.
  public var app: AppKey
  /// When the sender tries the app again (one entry as a probe).
  public var until: Date
  /// What Apple or the signer said.
  public var reason: String

  /// An app pause from its parts.
  public init(app: AppKey, until: Date, reason: String) {
    self.app = app
    self.until = until
    self.reason = reason
  }
}
