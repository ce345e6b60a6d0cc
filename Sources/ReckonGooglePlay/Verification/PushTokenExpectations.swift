/// What the OIDC token on an authenticated Pub/Sub push must say: the audience set on the push
/// subscription and the service account it pushes as.
public struct PushTokenExpectations: Hashable, Sendable {
  /// The `aud` claim: the subscription's audience, by default the push endpoint's URL.
  public var audience: String
  /// The `email` claim: the service account the subscription pushes as.
  public var serviceAccountEmail: String
  /// Seconds a token's times may be off from this machine's clock.
  public var allowedSkew: Int

  /// Google's issuers of OpenID tokens; it writes either form.
  public static let issuers: Set<String> = ["https://accounts.google.com", "accounts.google.com"]

  /// Expectations for one subscription.
  public init(audience: String, serviceAccountEmail: String, allowedSkew: Int = 300) {
    self.audience = audience
    self.serviceAccountEmail = serviceAccountEmail
    self.allowedSkew = allowedSkew
  }
}
