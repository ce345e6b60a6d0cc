import Foundation
import ReckonAppStore
import Testing

/// Verification against Apple's own vectors: the verdicts Apple's libraries give.
struct AppleVectorVerificationTests {
  static func testCARoot() throws -> [X509Certificate] {
    [try #require(X509Certificate(pemOrDER: try Fixture.data("testCA.pem")))]
  }

  static let exampleApp = AcceptedApp(
    bundleId: "com.example", appAppleId: 1234, environment: .sandbox)

  @Test func applesTestNotificationVerifiesAgainstTheTestRoot() throws {
    let verifier = NotificationVerifier(apps: [Self.exampleApp], roots: try Self.testCARoot())
    let signed = String(decoding: try Fixture.data("testNotification"), as: UTF8.self)
    let verified = try verifier.verify(signedPayload: signed)
    #expect(verified.payload.notificationType == .test)
    #expect(verified.payload.notificationUUID == "9ad56bd2-0bc6-42e0-af24-fd996d87a1e6")
    #expect(verified.app == Self.exampleApp)
  }

  @Test func applesWrongBundleIdVectorFailsTheAppCheck() throws {
    let verifier = NotificationVerifier(apps: [Self.exampleApp], roots: try Self.testCARoot())
    let signed = String(decoding: try Fixture.data("wrongBundleId"), as: UTF8.self)
    #expect(throws: VerificationFailure.self) { try verifier.verify(signedPayload: signed) }
    do {
      _ = try verifier.verify(signedPayload: signed)
    } catch {
      guard case .wrongBundleId = error else {
        Issue.record("expected wrongBundleId, got \(error)")
        return
      }
    }
  }

  @Test func anotherAppsNotificationNamesABundleConfiguredForTwoEnvironmentsOnceAndKeepsItsType()
    throws
  {
    let apps = [
      Self.exampleApp,
      AcceptedApp(bundleId: "com.example", appAppleId: 1234, environment: .production),
    ]
    let verifier = NotificationVerifier(apps: apps, roots: try Self.testCARoot())
    let signed = String(decoding: try Fixture.data("wrongBundleId"), as: UTF8.self)
    do {
      _ = try verifier.verifyNamingType(signedPayload: signed)
      Issue.record("another app's notification was accepted")
    } catch {
      guard case .wrongBundleId(let expected, _) = error.failure else {
        Issue.record("expected wrongBundleId, got \(error.failure)")
        return
      }
      #expect(expected == "com.example")
      #expect(error.notificationType != nil)
    }
  }

  @Test func applesMissingX5CVectorIsMalformed() throws {
    let verifier = NotificationVerifier(apps: [Self.exampleApp], roots: try Self.testCARoot())
    let signed = String(decoding: try Fixture.data("missingX5CHeaderClaim"), as: UTF8.self)
    #expect(throws: VerificationFailure.invalidCertificateList("the header has no x5c")) {
      try verifier.verify(signedPayload: signed)
    }
  }

  @Test func applesVectorsAreRefusedUnderTheRealAppleRoot() throws {
    let verifier = NotificationVerifier(
      apps: [Self.exampleApp], roots: AppleRootCertificates.defaultRoots())
    let signed = String(decoding: try Fixture.data("testNotification"), as: UTF8.self)
    #expect(throws: VerificationFailure.self) { try verifier.verify(signedPayload: signed) }
  }

  @Test func applesTransactionVectorVerifiesAsASignedPayload() throws {
    let verifier = SignedPayloadVerifier(roots: try Self.testCARoot())
    let signed = String(decoding: try Fixture.data("transactionInfo"), as: UTF8.self)
    let payload = try verifier.verify(signed) { $0.objectValue?["environment"]?.stringValue }
    let transaction = try AppStoreJSON.decoder().decode(
      JWSTransactionDecodedPayload.self, from: payload)
    #expect(transaction.bundleId == "com.example")
  }

  @Test func xcodePayloadsAreAcceptedOnlyWhenConfigured() throws {
    let signed = String(decoding: try Fixture.data("xcode-signed-transaction"), as: UTF8.self)
    let strict = SignedPayloadVerifier(roots: AppleRootCertificates.defaultRoots())
    #expect(throws: VerificationFailure.self) {
      try strict.verify(signed) { $0.objectValue?["environment"]?.stringValue }
    }
    let lenient = SignedPayloadVerifier(
      roots: AppleRootCertificates.defaultRoots(), unverifiedEnvironments: [.xcode])
    let payload = try lenient.verify(signed) { $0.objectValue?["environment"]?.stringValue }
    #expect(
      try AppStoreJSON.decoder().decode(JWSTransactionDecodedPayload.self, from: payload)
        .environment == .xcode)
  }

  @Test func theEmbeddedAppleRootIsTheShippedFileWithApplesFingerprint() throws {
    let shipped = try Data(
      contentsOf: Fixture.repositoryRoot.appendingPathComponent("certs/AppleRootCA-G3.der"))
    let embedded = try #require(AppleRootCertificates.defaultRoots().first)
    #expect(embedded.der == shipped)
    #expect(
      embedded.sha256Fingerprint
        == "63343abfb89a6a03ebb57e9b3f5fa7be7c4f5c756f3017b3a8c488c3653e9179")
  }
}

extension Fixture {
  static let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent()
    .deletingLastPathComponent()
}
