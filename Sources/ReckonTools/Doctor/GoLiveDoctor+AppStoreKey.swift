import Foundation
import ReckonAppStore
import ReckonEngine
import ReckonSupport

extension GoLiveDoctor {
  /// The `.p8` loads as `reckon serve` loads it (its mode checked the same way), signs an ES256
  /// token for every app with the configured key id and issuer, and each token's signature
  /// verifies with the key's public half: what Apple checks before it reads a reply.
  func keyCheck(_ configuration: ReckonConfiguration) -> DoctorCheck {
    let name = "app-store key"
    if configuration.apps.isEmpty, configuration.appStoreKey == nil {
      return .skip(name, "no App Store app is configured")
    }
    guard let settings = configuration.appStoreKey else {
      return .fail(
        name,
        "appStore is not configured: no reply can be sent to Apple (give issuerId, keyId and "
          + "privateKeyPath)")
    }
    if let mismatch = Self.keyIdMismatch(settings) { return .fail(name, mismatch) }
    var warnings: [String] = []
    let client: AppStoreAPIClient
    let publicKey: ES256PublicKey?
    do throws(SenderSetup.Failure) {
      client = try SenderSetup.client(configuration, transport: transport) { warnings.append($0) }
    } catch {
      return .fail(name, error.description)
    }
    do throws(SigningError) {
      publicKey = ES256PublicKey(pem: try PrivateKey(path: settings.privateKeyPath).publicKeyPEM())
    } catch {
      return .fail(name, "appStore.privateKeyPath: \(error.description)")
    }
    for app in configuration.apps {
      let token: String
      do { token = try client.makeToken(bundleId: app.bundleId, now: now()) } catch {
        return .fail(name, "\(settings.privateKeyPath): \(error.description)")
      }
      guard let publicKey, Self.verifies(token, with: publicKey) else {
        return .fail(
          name,
          "\(settings.privateKeyPath): the token for \(app.bundleId) does not verify with the "
            + "key's public half")
      }
    }
    let bundles = configuration.apps.map(\.bundleId).joined(separator: ", ")
    let warned = warnings.isEmpty ? "" : " (\(warnings.joined(separator: "; ")))"
    return .ok(
      name,
      "\(settings.privateKeyPath) (key \(settings.keyId), issuer \(settings.issuerId)) signs "
        + "ES256 tokens for \(bundles) that verify with its public half\(warned)")
  }

  /// Why the key file and `appStore.keyId` disagree, when App Store Connect's name for the file
  /// names another key; nil when they agree or the file has another name.
  public static func keyIdMismatch(_ settings: AppStoreKeyConfiguration) -> String? {
    guard let named = keyIdInFileName(settings.privateKeyPath), named != settings.keyId else {
      return nil
    }
    return "\(settings.privateKeyPath) is the file App Store Connect names for key \(named), but "
      + "appStore.keyId is \(settings.keyId): Apple would answer every reply 401"
  }

  /// The key id in App Store Connect's name for a downloaded key, `AuthKey_KEYID.p8`.
  static func keyIdInFileName(_ path: String) -> String? {
    let file = URL(fileURLWithPath: path).lastPathComponent
    guard file.hasPrefix("AuthKey_"), file.hasSuffix(".p8") else { return nil }
    let id = file.dropFirst("AuthKey_".count).dropLast(".p8".count)
    return id.isEmpty ? nil : String(id)
  }

  /// Whether the compact token's signature signs its header and claims under `key`.
  static func verifies(_ token: String, with key: ES256PublicKey) -> Bool {
    let parts = token.split(separator: ".", omittingEmptySubsequences: false)
    guard parts.count == 3, let signature = Base64URL.decode(parts[2]) else { return false }
    return key.verifies(signature: signature, message: Data("\(parts[0]).\(parts[1])".utf8))
  }
}
