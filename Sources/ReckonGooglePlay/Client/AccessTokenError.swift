/// Why no access token could be had. No answer is sent without one, so Google cannot have
/// recorded anything.
public enum AccessTokenError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The assertion could not be signed.
  case notSigned(String)
  /// The token endpoint could not be reached.
  case unreachable(String)
  /// The token endpoint refused the assertion (a disabled account, a deleted key, a clock far
  /// off), with its status and reason.
  case refused(status: Int, String)

  /// One sentence.
  public var description: String {
    switch self {
    case .notSigned(let why): "the service-account assertion could not be signed: \(why)"
    case .unreachable(let why): "the OAuth token endpoint could not be reached: \(why)"
    case .refused(let status, let why): "the OAuth token endpoint answered \(status): \(why)"
    }
  }
}
