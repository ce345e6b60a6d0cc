/// A request the server answered itself without reaching the handler: a malformed, oversized or
/// unsupported request (400, 411, 413, 431), one cut off by the read timeout (408), or a
/// connection over the limit (503). Reported so a wrong webhook URL or a too small body limit
/// does not lose Apple's notifications unseen.
public struct HTTPRefusal: Sendable, Equatable {
  /// The status answered.
  public let status: Int
  /// Why, as the answer said it.
  public let reason: String
  /// How many requests it stands for: connections over the limit are reported together, at
  /// most once a second, so a flood does not write a line per connection from the thread that
  /// accepts them.
  public let count: Int
  /// Who sent it, `address:port`, for a single refusal.
  public let client: String?

  /// `count` refusals answered with `status` for `reason`, sent by `client` when known.
  public init(status: Int, reason: String, count: Int = 1, client: String? = nil) {
    self.status = status
    self.reason = reason
    self.count = count
    self.client = client
  }
}
