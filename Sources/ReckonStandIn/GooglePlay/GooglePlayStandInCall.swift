import Foundation

/// One request the Google Play stand-in received, and what it made of it.
public struct GooglePlayStandInCall: Hashable, Sendable {
  /// Which endpoint was called.
  public enum Endpoint: Hashable, Sendable {
    /// `POST /token`: an assertion exchanged for an access token.
    case token
    /// `GET /oauth2/v3/certs`: the OpenID signing keys.
    case certificates
    /// `POST …/orders/{orderId}:reviewrefund`.
    case reviewRefund(packageName: String, orderId: String)
    /// Anything else.
    case unknown
  }

  /// The endpoint.
  public var endpoint: Endpoint
  /// The body as received.
  public var body: Data
  /// Why the call was refused, if it was.
  public var problem: String?
  /// The status answered.
  public var status: Int
  /// Whether this call's answer is the one recorded for its review (the first that passed).
  public var recorded: Bool
}
