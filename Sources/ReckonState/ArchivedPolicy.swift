import Foundation

/// The last policy that went live for one app, kept in the state so a restart can start with it
/// when the file on disk does not check.
public struct ArchivedPolicy: Hashable, Sendable {
  /// The app it decides for.
  public var app: AppKey
  /// Where it was read from (the policy file's path, or a name for text held in memory).
  public var source: String
  /// Its exact text.
  public var text: String
  /// SHA-256 of `text` as lowercase hex.
  public var textSHA256: String
  /// When it went live.
  public var wentLiveAt: Date

  /// An archived policy from its parts.
  public init(app: AppKey, source: String, text: String, textSHA256: String, wentLiveAt: Date) {
    self.app = app
    self.source = source
    self.text = text
    self.textSHA256 = textSHA256
    self.wentLiveAt = wentLiveAt
  }
}
