import Foundation
import ReckonGooglePlay
import ReckonSupport

/// Builds Google Play's parts from `reckon.json`: the push verifier with Google's signing keys,
/// and the Developer API client from the service account's key file.
public enum GooglePlaySetup {
  /// Why Google Play's parts cannot be set up.
  public enum Failure: Error, Hashable, Sendable, CustomStringConvertible {
    /// The service account's key file cannot be used.
    case key(ServiceAccountKeyError)
    /// Any user of the machine may read the key file.
    case keyReadableByOthers(path: String, mode: UInt16)
    /// A part that fetches (the keys, the client) was asked for with no transport given.
    case noTransport
    /// The keys file a service that fetches no keys verifies pushes with does not read.
    case keysFile(path: String, reason: String)
    /// The key file's `token_uri` is plain http to a host that is not this machine: the signed
    /// assertion, good for an hour of tokens, would cross the network in clear.
    case unsafeTokenURL(path: String, url: String)

    /// What to fix.
    public var description: String {
      switch self {
      case .key(let error): "googlePlay.serviceAccountKeyPath: \(error.description)"
      case .keyReadableByOthers(let path, let mode):
        "googlePlay.serviceAccountKeyPath: \(path) can be read by any user (mode "
          + String(mode & 0o777, radix: 8)
          + "): it holds the service account's private key; run chmod 600 on it"
      case .unsafeTokenURL(let path, let url):
        "googlePlay.serviceAccountKeyPath: \(path): token_uri \(url) is plain http; the signed "
          + "assertion would cross the network in clear (https, or http to this machine only)"
      case .keysFile(let path, let reason):
        "googlePlay.push.keysFile: \(path): \(reason); with refreshKeys false it is the only "
          + "source of Google's keys, and no push would verify"
      case .noTransport:
        "googlePlay: is configured, but no HTTP transport was given to reach Google through "
          + "(pass ReckonHTTP's CurlHTTPClient())"
      }
    }
  }

  /// Where the push verifier gets Google's signing keys.
  public static func keys(_ settings: GooglePlayConfiguration, transport: (any HTTPTransport)?)
    throws(Failure) -> GoogleSigningKeys
  {
    guard settings.refreshKeys else {
      let path = settings.keysFile!
      // Read now: every push would otherwise be refused as signed by a key Google does not have.
      do { _ = try JSONWebKeySet(json: try LocalFile.data(at: path)) } catch {
        throw .keysFile(path: path, reason: "\(error)")
      }
      return GoogleSigningKeys(.file(path))
    }
    guard let transport else { throw .noTransport }
    let url = URL(string: settings.keysURL) ?? GoogleSigningKeys.googleCertificatesURL
    return GoogleSigningKeys(
      .fetched(url: url, transport: transport, cacheFile: settings.keysFile))
  }

  /// The verifier of the push subscription's tokens.
  public static func verifier(_ settings: GooglePlayConfiguration, keys: GoogleSigningKeys)
    -> PushTokenVerifier
  {
    PushTokenVerifier(
      expected: PushTokenExpectations(
        audience: settings.audience, serviceAccountEmail: settings.pushServiceAccountEmail),
      keys: keys)
  }

  /// The Developer API client, or nil when no service account key is configured (answers are
  /// then decided and queued, not sent).
  public static func client(_ settings: GooglePlayConfiguration, transport: (any HTTPTransport)?)
    throws(Failure) -> GooglePlayAPIClient?
  {
    guard let path = settings.serviceAccountKeyPath else { return nil }
    guard let transport else { throw .noTransport }
    if let mode = LocalFile.permissions(at: path), mode & 0o004 != 0 {
      throw .keyReadableByOthers(path: path, mode: mode)
    }
    let account: ServiceAccountKey
    do throws(ServiceAccountKeyError) { account = try ServiceAccountKey(path: path) } catch {
      throw .key(error)
    }
    guard AppStoreKeyConfiguration.isSafeBaseURL(account.tokenURL.absoluteString) else {
      throw .unsafeTokenURL(path: path, url: account.tokenURL.absoluteString)
    }
    return GooglePlayAPIClient(
      tokens: AccessTokenSource(account: account, transport: transport),
      baseURL: settings.baseURL.flatMap(URL.init(string:)) ?? GooglePlayAPIClient.productionURL,
      transport: transport)
  }
}
