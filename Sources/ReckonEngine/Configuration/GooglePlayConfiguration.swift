import Foundation
import ReckonGooglePlay

/// `googlePlay` in reckon.json: how Reckon takes Google Play's pushes (the Pub/Sub push
/// subscription's path, audience and service account, and Google's signing keys) and answers
/// them (the service account's key file). See docs/google-play.md.
public struct GooglePlayConfiguration: Hashable, Sendable {
  /// The service account's JSON key file, which signs the token for `orders.reviewrefund`;
  /// without it answers are decided and queued but not sent.
  public var serviceAccountKeyPath: String?
  /// Replaces Google's Developer API host, for a local stand-in.
  public var baseURL: String?
  /// The path Pub/Sub pushes to.
  public var pushPath: String
  /// The audience the push subscription's tokens carry (by default its push endpoint URL).
  public var audience: String
  /// The service account the push subscription authenticates as.
  public var pushServiceAccountEmail: String
  /// A JWKS file of Google's signing keys: kept fresh from `keysURL` when `refreshKeys`, else
  /// read as it is (and again when it changes).
  public var keysFile: String?
  /// Whether Google's keys are fetched from `keysURL` (and kept in `keysFile`).
  public var refreshKeys: Bool
  /// Where Google's signing keys are fetched from.
  public var keysURL: String

  init(_ reader: ConfigurationReader, resolve: (String) -> String) throws(ConfigurationError) {
    try reader.rejectUnknownKeys(["serviceAccountKeyPath", "baseURL", "push"])
    serviceAccountKeyPath = try reader.optionalString("serviceAccountKeyPath").map(resolve)
    baseURL = try reader.optionalString("baseURL")
    if let baseURL, !AppStoreKeyConfiguration.isSafeBaseURL(baseURL) {
      throw ConfigurationError(
        reader.keyPath("baseURL"), "must be https, or http on loopback for a local stand-in")
    }
    guard let push = try reader.object("push") else {
      throw ConfigurationError(
        reader.keyPath("push"),
        "is required: the push subscription's audience and service account, without which no push can be verified"
      )
    }
    try push.rejectUnknownKeys([
      "path", "audience", "serviceAccountEmail", "keysFile", "refreshKeys", "keysURL",
    ])
    pushPath = try push.optionalString("path") ?? "/google/rtdn"
    if let problem = ServerConfiguration.unreachablePath(pushPath) {
      throw ConfigurationError(push.keyPath("path"), problem)
    }
    audience = try push.string("audience")
    pushServiceAccountEmail = try push.string("serviceAccountEmail")
    guard pushServiceAccountEmail.contains("@") else {
      throw ConfigurationError(
        push.keyPath("serviceAccountEmail"),
        "must be the email of the service account the push subscription authenticates as")
    }
    keysFile = try push.optionalString("keysFile").map(resolve)
    refreshKeys = try push.bool("refreshKeys", default: true)
    keysURL =
      try push.optionalString("keysURL") ?? GoogleSigningKeys.googleCertificatesURL.absoluteString
    if !AppStoreKeyConfiguration.isSafeBaseURL(keysURL) {
      throw ConfigurationError(
        push.keyPath("keysURL"), "must be https, or http on loopback for a local stand-in")
    }
    if !refreshKeys, keysFile == nil {
      throw ConfigurationError(
        push.keyPath("keysFile"),
        "is required when refreshKeys is false: the keys must come from somewhere")
    }
  }
}
