import Foundation
import ReckonSupport

/// An app whose notifications are accepted: bundle id, App Apple ID (checked in Production) and
/// environment.
public struct AcceptedApp: Hashable, Sendable {
  /// The bundle identifier.
  public let bundleId: String
  /// The App Apple ID; Production notifications must carry it.
  public let appAppleId: Int64?
  /// The environment.
  public let environment: AppStoreEnvironment

  /// Describes an accepted app.
  public init(bundleId: String, appAppleId: Int64?, environment: AppStoreEnvironment) {
    self.bundleId = bundleId
    self.appAppleId = appAppleId
    self.environment = environment
  }
}

/// A notification whose signatures, certificates and app identity were all verified.
public struct VerifiedNotification: Hashable, Sendable {
  /// The decoded notification.
  public let payload: ResponseBodyV2DecodedPayload
  /// The decoded, verified `signedTransactionInfo`, when the notification carries one.
  public let transaction: JWSTransactionDecodedPayload?
  /// The app it was accepted for.
  public let app: AcceptedApp
}

/// A notification refused, with its type when the payload was read and verified before it was
/// refused (for an app that is not configured, say), so logs and metrics can name it.
public struct RefusedNotification: Error, Hashable, Sendable {
  /// Why it was refused.
  public let failure: VerificationFailure
  /// The verified payload's `notificationType`; nil when the payload could not be read or trusted.
  public let notificationType: String?
  /// The verified payload's `notificationUUID`; nil when the payload could not be read, or came
  /// unsigned (an allowed Xcode or LocalTesting one: anybody's text).
  public var notificationUUID: String? = nil
  /// The bundle id the verified payload names, as `notificationUUID` is given.
  public var bundleId: String? = nil
}

/// Verifies an App Store Server Notification V2 `signedPayload` and its nested transaction, then
/// checks bundle id, App Apple ID and environment against the configured apps.
public struct NotificationVerifier: Sendable {
  private let verifier: SignedPayloadVerifier
  private let apps: [AcceptedApp]
  /// The environments whose notifications are accepted unsigned (Xcode, local testing).
  public let unverifiedEnvironments: Set<AppStoreEnvironment>

  /// Creates a verifier for `apps`, trusting `roots`.
  public init(
    apps: [AcceptedApp], roots: [X509Certificate],
    unverifiedEnvironments: Set<AppStoreEnvironment> = []
  ) {
    self.apps = apps
    self.unverifiedEnvironments = unverifiedEnvironments
    self.verifier = SignedPayloadVerifier(
      roots: roots, unverifiedEnvironments: unverifiedEnvironments)
  }

  /// Whether any app's notifications are accepted: a service of Google Play apps alone has none.
  public var acceptsAnyApp: Bool { !apps.isEmpty }

  /// Verifies the body Apple POSTs: `{"signedPayload": "..."}`.
  public func verify(body: Data) throws(VerificationFailure) -> VerifiedNotification {
    do { return try verifyNamingType(body: body) } catch { throw error.failure }
  }

  /// Verifies a `signedPayload` JWS.
  public func verify(signedPayload: String) throws(VerificationFailure) -> VerifiedNotification {
    do { return try verifyNamingType(signedPayload: signedPayload) } catch { throw error.failure }
  }

  /// `verify(body:)`, whose refusal carries the notification type once the signed payload
  /// itself verified.
  public func verifyNamingType(body: Data) throws(RefusedNotification) -> VerifiedNotification {
    guard case .string(let signed)? = (try? JSONValue.parse(body))?.objectValue?["signedPayload"]
    else {
      throw RefusedNotification(
        failure: .malformed("the body has no signedPayload"), notificationType: nil)
    }
    return try verifyNamingType(signedPayload: signed)
  }

  /// `verify(signedPayload:)`, whose refusal carries the notification type once the signed
  /// payload itself verified.
  public func verifyNamingType(signedPayload: String) throws(RefusedNotification)
    -> VerifiedNotification
  {
    let payload: ResponseBodyV2DecodedPayload
    do { payload = try verifiedPayload(signedPayload) } catch {
      throw RefusedNotification(failure: error, notificationType: nil)
    }
    // Signed by Apple and readable: a refusal from here on is about whose it is, not what it is.
    do { return try accepted(payload) } catch {
      // Only a type Apple defines: the payload may be an unsigned Xcode one, whose text is
      // anybody's; its id and app only when Apple signed them, for the log to name.
      var refused = RefusedNotification(
        failure: error, notificationType: payload.notificationType?.rawValue)
      let claimed = ClaimedApp(payload)
      if !unverifiedEnvironments.contains(
        where: { $0.rawValue == claimed?.environment })
      {
        refused.notificationUUID = payload.notificationUUID.map { QuotedText.cut($0, to: 64) }
        refused.bundleId = claimed?.bundleId.map { QuotedText.cut($0, to: 200) }
      }
      throw refused
    }
  }

  private func verifiedPayload(_ signedPayload: String) throws(VerificationFailure)
    -> ResponseBodyV2DecodedPayload
  {
    let payloadJSON = try verifier.verifiedPayload(
      signedPayload, environment: NotificationVerifier.claimedEnvironment
    ).json
    let payload: ResponseBodyV2DecodedPayload
    do {
      // From the value verification parsed, not the bytes again (see `JSONValueDecoder`).
      payload = try JSONValueDecoder().decode(ResponseBodyV2DecodedPayload.self, from: payloadJSON)
    } catch {
      throw .malformed("the notification payload does not decode: \(error)")
    }
    return payload
  }

  /// The environment an unverified payload claims, read as `ClaimedApp` reads it (from `data`,
  /// `summary`, `externalPurchaseToken`, `appData` or `unclaimInfo`, the first there), so that whether it may
  /// come unsigned and whose it is are judged on the same claim. A token has no `environment`
  /// field (one written there is ignored, as `ClaimedApp` ignores it): its id says which.
  static func claimedEnvironment(_ payload: JSONValue) -> String? {
    guard let object = payload.objectValue else { return nil }
    for block in ["data", "summary", "externalPurchaseToken", "appData", "unclaimInfo"] {
      guard let found = object[block]?.objectValue else { continue }
      guard block == "externalPurchaseToken" else { return found["environment"]?.stringValue }
      return found["externalPurchaseId"]?.stringValue.map {
        ExternalPurchaseToken.environment(ofId: $0).rawValue
      }
    }
    return nil
  }

  /// Checks the verified payload's app (from `data`, `summary`, `externalPurchaseToken`,
  /// `appData` or `unclaimInfo`, whichever it carries) and its signed transaction.
  private func accepted(_ payload: ResponseBodyV2DecodedPayload) throws(VerificationFailure)
    -> VerifiedNotification
  {
    guard let claimed = ClaimedApp(payload) else { throw .noApp }
    let app = try acceptedApp(
      bundleId: claimed.bundleId, appAppleId: claimed.appAppleId, environment: claimed.environment)
    guard let signedTransaction = payload.data?.signedTransactionInfo else {
      return VerifiedNotification(payload: payload, transaction: nil, app: app)
    }
    let transactionJSON = try verifier.verifiedPayload(signedTransaction) {
      $0.objectValue?["environment"]?.stringValue
    }.json
    let transaction: JWSTransactionDecodedPayload
    do {
      transaction = try JSONValueDecoder().decode(
        JWSTransactionDecodedPayload.self, from: transactionJSON)
    } catch {
      throw .malformed("the transaction payload does not decode: \(error)")
    }
    guard transaction.bundleId == app.bundleId else {
      throw .transactionMismatch(
        field: "bundle id", notification: app.bundleId, transaction: transaction.bundleId)
    }
    guard transaction.rawEnvironment == app.environment.rawValue else {
      throw .transactionMismatch(
        field: "environment", notification: app.environment.rawValue,
        transaction: transaction.rawEnvironment)
    }
    return VerifiedNotification(payload: payload, transaction: transaction, app: app)
  }

  private func acceptedApp(bundleId: String?, appAppleId: Int64?, environment: String?)
    throws(VerificationFailure) -> AcceptedApp
  {
    let sameBundle = apps.filter { $0.bundleId == bundleId }
    guard let first = sameBundle.first else {
      // A bundle configured for two environments is one accepted bundle: name it once.
      var named: Set<String> = []
      let bundles = apps.map(\.bundleId).filter { named.insert($0).inserted }
      throw .wrongBundleId(expected: bundles.joined(separator: " or "), found: bundleId)
    }
    guard let app = sameBundle.first(where: { $0.environment.rawValue == environment }) else {
      throw .wrongEnvironment(
        expected: sameBundle.map(\.environment.rawValue).joined(separator: " or "),
        found: environment)
    }
    if app.environment == .production, let expected = app.appAppleId ?? first.appAppleId,
      appAppleId != expected
    {
      throw .wrongAppAppleId(expected: expected, found: appAppleId)
    }
    return app
  }
}
