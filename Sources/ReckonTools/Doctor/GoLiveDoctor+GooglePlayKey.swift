import Foundation
import ReckonEngine
import ReckonGooglePlay

extension GoLiveDoctor {
  /// The service account's key file loads as `reckon serve` loads it (its mode checked the same
  /// way) and its key signs an RS256 assertion that verifies with its public half: what Google's
  /// token endpoint checks before it gives a token for `orders.reviewrefund`.
  func googlePlayKeyCheck(_ configuration: ReckonConfiguration) -> DoctorCheck {
    let name = "google-play key"
    guard let settings = configuration.googlePlay, let path = settings.serviceAccountKeyPath
    else {
      return .fail(
        name,
        "googlePlay.serviceAccountKeyPath is not configured: no answer can be sent to Google Play")
    }
    do throws(GooglePlaySetup.Failure) {
      _ = try GooglePlaySetup.client(settings, transport: transport)
    } catch {
      return .fail(name, error.description)
    }
    do {
      let account = try ServiceAccountKey(path: path)
      let message = Data("reckon doctor".utf8)
      let signature = try account.privateKey.signRS256(message)
      guard try account.privateKey.publicKey().verifiesRS256(signature: signature, message: message)
      else {
        return .fail(name, "\(path): the key's signature does not verify with its public half")
      }
      return .ok(
        name,
        "\(path) loads and signs RS256 for \(account.clientEmail), whose tokens come from "
          + account.tokenURL.absoluteString)
    } catch {
      return .fail(name, "\(path): \(error)")
    }
  }

  /// Google's signing keys load as `reckon serve` loads them (the keys file, or a fetch from
  /// `keysURL` kept in it): without them every push is refused.
  func googlePlayPushKeysCheck(_ configuration: ReckonConfiguration) async -> DoctorCheck {
    let name = "google-play push keys"
    guard let settings = configuration.googlePlay else {
      return .fail(name, "googlePlay is not configured: no push can be verified")
    }
    if settings.refreshKeys, options.offline {
      return .skip(name, "--offline: Google's keys were not fetched from \(settings.keysURL)")
    }
    let keys: GoogleSigningKeys
    if settings.refreshKeys {
      // Fetched without the service's cache: doctor, run by another user, must not make or
      // replace the file serve keeps the keys in.
      keys = GoogleSigningKeys(
        .fetched(
          url: URL(string: settings.keysURL) ?? GoogleSigningKeys.googleCertificatesURL,
          transport: transport, cacheFile: nil))
    } else {
      do throws(GooglePlaySetup.Failure) {
        keys = try GooglePlaySetup.keys(settings, transport: transport)
      } catch {
        return .fail(name, error.description)
      }
    }
    await keys.refresh(now: Date())
    let count = await keys.count
    guard count > 0 else {
      return .fail(name, await keys.lastProblem ?? "Google's keys did not load")
    }
    let from = settings.refreshKeys ? settings.keysURL : settings.keysFile ?? ""
    return .ok(name, "\(count) signing key\(count == 1 ? "" : "s") from \(from)")
  }
}
