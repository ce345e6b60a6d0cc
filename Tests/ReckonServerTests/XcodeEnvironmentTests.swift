import Foundation
import ReckonAppStore
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

  static let verifier = NotificationVerifier(
    apps: [AcceptedApp(bundleId: "com.example", appAppleId: nil, environment: .sandbox)],
    roots: AppleRootCertificates.defaultRoots(), unverifiedEnvironments: [.xcode, .localTesting])

  @Test(arguments: ["Xcode", "LocalTesting"])
  func anUnsignedLocalPayloadIsNotAcceptedForASandboxApp(environment: String) {
    #expect(throws: VerificationFailure.self) {
      try Self.verifier.verify(signedPayload: Self.unsigned(environment: environment))
    }
  }

  @Test func anUnsignedPayloadClaimingSandboxIsRefusedEvenWhenXcodeIsAllowed() {
    #expect(throws: VerificationFailure.unsupportedAlgorithm("none")) {
      try Self.verifier.verify(signedPayload: Self.unsigned(environment: "Sandbox"))
    }
  }
}
