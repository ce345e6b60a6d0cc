import Foundation
import ReckonAppStore
import Testing

/// Apple's notifications that carry `summary`, `externalPurchaseToken` or `appData` instead of
/// `data`, signed as they are by a test CA made at their `signedDate`: the app is checked from
/// whichever the payload carries, as strictly as from `data`.
struct DatalessNotificationVerificationTests {
  struct Example: CustomTestStringConvertible, Sendable {
    /// Apple's decoded payload, in Tests/Fixtures/apple.
    let fixture: String
    /// The app it names.
    let app: AcceptedApp
    var testDescription: String { fixture }
  }

  /// Apple's examples all carry signedDate 1698148900000.
  static let signedDate = Date(timeIntervalSince1970: 1_698_148_900)

  static let examples = [
    Example(
      fixture: "signedSummaryNotification.json",
      app: AcceptedApp(bundleId: "com.example", appAppleId: 41234, environment: .localTesting)),
    Example(
      fixture: "signedExternalPurchaseTokenNotification.json",
      app: AcceptedApp(bundleId: "com.example", appAppleId: 55555, environment: .production)),
    Example(
      fixture: "signedExternalPurchaseTokenSandboxNotification.json",
      app: AcceptedApp(bundleId: "com.example", appAppleId: 55555, environment: .sandbox)),
    Example(
      fixture: "signedRescindConsentNotification.json",
      app: AcceptedApp(bundleId: "com.example", appAppleId: 41234, environment: .localTesting)),
  ]

  /// `payload` signed by `ca`, then verified for `apps`.
  static func verify(
    _ payload: Data, apps: [AcceptedApp], ca: LocalCertificateAuthority
  ) throws -> VerifiedNotification {
    let verifier = NotificationVerifier(apps: apps, roots: [ca.root])
    return try verifier.verifyNamingType(signedPayload: try ca.sign(payload: payload))
  }

  /// The refusal of `payload` signed by `ca` and verified for `apps`.
  static func refusal(
    _ payload: Data, apps: [AcceptedApp], ca: LocalCertificateAuthority
  ) throws -> RefusedNotification {
    let verifier = NotificationVerifier(apps: apps, roots: [ca.root])
    let signed = try ca.sign(payload: payload)
    return try #require(throws: RefusedNotification.self) {
      try verifier.verifyNamingType(signedPayload: signed)
    }
  }

  static func authority() throws -> LocalCertificateAuthority {
    try LocalCertificateAuthority(now: signedDate)
  }

  @Test(arguments: examples)
  func isAcceptedForTheAppItNames(_ example: Example) throws {
    let verified = try Self.verify(
      try Fixture.data(example.fixture), apps: [example.app], ca: try Self.authority())
    #expect(verified.app == example.app)
    #expect(verified.transaction == nil)
    #expect(verified.payload.data == nil)
  }

  @Test(arguments: examples)
  func anotherAppsIsRefusedWithItsType(_ example: Example) throws {
    let other = AcceptedApp(
      bundleId: "com.example.other", appAppleId: example.app.appAppleId,
      environment: example.app.environment)
    let refused = try Self.refusal(
      try Fixture.data(example.fixture), apps: [other], ca: try Self.authority())
    #expect(
      refused.failure == .wrongBundleId(expected: "com.example.other", found: "com.example"))
    #expect(refused.notificationType != nil)
  }

  @Test func anotherEnvironmentsIsRefused() throws {
    let production = AcceptedApp(
      bundleId: "com.example", appAppleId: 55555, environment: .production)
    let refused = try Self.refusal(
      try Fixture.data("signedExternalPurchaseTokenSandboxNotification.json"), apps: [production],
      ca: try Self.authority())
    #expect(refused.failure == .wrongEnvironment(expected: "Production", found: "Sandbox"))
  }

  @Test func anotherAppAppleIdIsRefusedInProduction() throws {
    let production = AcceptedApp(bundleId: "com.example", appAppleId: 99, environment: .production)
    let refused = try Self.refusal(
      try Fixture.data("signedExternalPurchaseTokenNotification.json"), apps: [production],
      ca: try Self.authority())
    #expect(refused.failure == .wrongAppAppleId(expected: 99, found: 55555))
  }

  @Test func aPayloadNamingNoAppIsRefusedSayingSo() throws {
    var payload = try #require(
      try JSONSerialization.jsonObject(with: Fixture.data("signedSummaryNotification.json"))
        as? [String: Any])
    payload["summary"] = nil
    let refused = try Self.refusal(
      try JSONSerialization.data(withJSONObject: payload),
      apps: [Self.examples[0].app], ca: try Self.authority())
    #expect(refused.failure == .noApp)
    #expect(refused.failure.description.contains("none of data, summary"))
    #expect(refused.notificationType == "RENEWAL_EXTENSION")
  }
}
