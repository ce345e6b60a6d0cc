/// Why a local OpenID identity could not be read or written.
public struct LocalIdentityError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The file or folder.
  public let path: String
  /// What is wrong with it.
  public let reason: String

  /// An error about `path`.
  public init(path: String, reason: String) {
    self.path = path
    self.reason = reason
  }

  /// `PATH: REASON`.
  public var description: String { "\(path): \(reason)" }
}
