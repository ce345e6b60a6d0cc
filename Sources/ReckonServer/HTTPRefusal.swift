/// A request the server answered itself without reaching the handler: a malformed, oversized or
/// unsupported request (400, 411, 413, 431), one cut off by the read timeout (408), or a
/// connection over the limit (503). Reported so a wrong webhook URL or a too small body limit
/// does not lose Apple's notifications unseen.
public struct HTTPRefusal: Sendable, Equatable {
  /// The status answered.
  public let status: Int
  /// Why, as the answer said it.
  public let reason: String

  /// A refusal answered with `status` for `reason`.
  public init(status: Int, reason: String) {
    self.status = status
    self.reason = reason
  }
}
