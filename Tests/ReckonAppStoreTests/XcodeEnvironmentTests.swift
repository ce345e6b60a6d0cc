import Foundation
import ReckonAppStore
import ReckonSupport
import Testing

/// `trust.allowXcode` lets locally signed Xcode payloads in unverified, so it must not open a
/// door for the apps in Sandbox or Production: an unsigned payload only ever matches an app
/// configured for the environment it claims.
@Suite struct XcodeEnvironmentTests {
  static func unsigned(environment: String) -> String {
    let header = Base64URL.encode(Data(#"{"alg":"none"}"#.utf8))
    let payload = Base64URL.encode(
      Data(
        #"{"notificationType":"CONSUMPTION_REQUEST","notificationUUID":"u","data":{"bundleId":"com.example","environment":"\#(environment)"}}"#
          .utf8))
    return header + "." + payload + "."
  }

  /// An unsigned payload whose app is named by `block` (`summary` or `appData`), not `data`.
  static func unsigned(block: String, type: String, environment: String) -> String {
    let header = Base64URL.encode(Data(#"{"alg":"none"}"#.utf8))
    let payload = Base64URL.encode(
      Data(
        #"{"notificationType":"\#(type)","notificationUUID":"u","\#(block)":{"bundleId":"com.example","environment":"\#(environment)"}}"#
          .utf8))
    return header + "." + payload + "."
  }

  static let verifier = NotificationVerifier(
    apps: [AcceptedApp(bundleId: "com.example", appAppleId: nil, environment: .sandbox)],
    roots: AppleRootCertificates.defaultRoots(), unverifiedEnvironments: [.xcode, .localTesting])

  @Test(arguments: ["Xcode", "LocalTesting"])
  func anUnsignedLocalPayloadIsNotAcceptedForASandboxApp(environment: String) {
    #expect(throws: VerificationFailure.self) {
      try Self.verifier.verify(signedPayload: Self.unsigned(environment: environment))
    }
  }

  /// A refusal names the notification and its app for the log only when Apple signed them: an
  /// unsigned local payload's are anybody's text.
  @Test func aRefusedUnsignedPayloadNamesNoNotificationOrApp() throws {
    do {
      _ = try Self.verifier.verifyNamingType(signedPayload: Self.unsigned(environment: "Xcode"))
      Issue.record("an Xcode payload for a Sandbox app was accepted")
    } catch {
      #expect(error.notificationType == "CONSUMPTION_REQUEST")
      #expect(error.notificationUUID == nil)
      #expect(error.bundleId == nil)
    }
  }

  @Test func anUnsignedPayloadClaimingSandboxIsRefusedEvenWhenXcodeIsAllowed() {
    #expect(throws: VerificationFailure.unsupportedAlgorithm("none")) {
      try Self.verifier.verify(signedPayload: Self.unsigned(environment: "Sandbox"))
    }
  }

  /// Whether a payload may come unsigned is judged on the environment of the block that names
  /// its app: Apple's LocalTesting summary and consent notifications carry no `data`.
  @Test(arguments: [("summary", "RENEWAL_EXTENSION"), ("appData", "RESCIND_CONSENT")])
  func anUnsignedLocalPayloadWithoutDataIsAcceptedForItsLocalApp(block: String, type: String)
    throws
  {
    let local = NotificationVerifier(
      apps: [AcceptedApp(bundleId: "com.example", appAppleId: nil, environment: .localTesting)],
      roots: AppleRootCertificates.defaultRoots(), unverifiedEnvironments: [.localTesting])
    let verified = try local.verify(
      signedPayload: Self.unsigned(block: block, type: type, environment: "LocalTesting"))
    #expect(verified.app.environment == .localTesting)
    #expect(throws: VerificationFailure.unsupportedAlgorithm("none")) {
      try local.verify(
        signedPayload: Self.unsigned(block: block, type: type, environment: "Sandbox"))
    }
  }

  /// An external purchase token is never an Xcode or LocalTesting one: its environment comes from
  /// its id, so an `environment` written into it cannot let it in unsigned (it was recorded as the
  /// Production app's).
  @Test(arguments: ["Xcode", "LocalTesting"])
  func anUnsignedExternalPurchaseTokenIsRefusedWhateverEnvironmentItWrites(environment: String) {
    let header = Base64URL.encode(Data(#"{"alg":"none"}"#.utf8))
    let payload = Base64URL.encode(
      Data(
        #"{"notificationType":"EXTERNAL_PURCHASE_TOKEN","notificationUUID":"u","externalPurchaseToken":{"environment":"\#(environment)","externalPurchaseId":"abc","bundleId":"com.example","appAppleId":1}}"#
          .utf8))
    let verifier = NotificationVerifier(
      apps: [
        AcceptedApp(bundleId: "com.example", appAppleId: 1, environment: .production),
        AcceptedApp(bundleId: "com.example", appAppleId: nil, environment: .xcode),
        AcceptedApp(bundleId: "com.example", appAppleId: nil, environment: .localTesting),
      ],
      roots: AppleRootCertificates.defaultRoots(), unverifiedEnvironments: [.xcode, .localTesting])
    #expect(throws: VerificationFailure.unsupportedAlgorithm("none")) {
      try verifier.verify(signedPayload: header + "." + payload + ".")
    }
  }
}
