import Foundation
import ReckonAppStore
import ReckonSupport
import Testing

/// Verification against a PKI made in the test: each way a payload can be forged or wrong, with
/// the verdict it must get.
struct TestPKIVerificationTests {
  static let app = AcceptedApp(
    bundleId: "com.example.coins", appAppleId: 1_234_567_890, environment: .production)
  static let signedDate = Date()

  static func notification(
    bundleId: String = "com.example.coins", appAppleId: Int64 = 1_234_567_890,
    environment: String = "Production",
    transaction: String? = nil
  ) -> Data {
    var data: [String: Any] = [
      "bundleId": bundleId, "appAppleId": appAppleId, "environment": environment,
    ]
    data["consumptionRequestReason"] = "UNINTENDED_PURCHASE"
    if let transaction { data["signedTransactionInfo"] = transaction }
    let payload: [String: Any] = [
      "notificationType": "CONSUMPTION_REQUEST", "notificationUUID": UUID().uuidString,
      "version": "2.0",
      "signedDate": Int64(signedDate.timeIntervalSince1970 * 1000), "data": data,
    ]
    return try! JSONSerialization.data(withJSONObject: payload)
  }

  static func transaction(
    bundleId: String = "com.example.coins", environment: String = "Production"
  ) -> Data {
    let payload: [String: Any] = [
      "transactionId": "2000000812345678", "bundleId": bundleId, "environment": environment,
      "type": "Consumable",
      "signedDate": Int64(signedDate.timeIntervalSince1970 * 1000),
    ]
    return try! JSONSerialization.data(withJSONObject: payload)
  }

  func verify(_ signed: String, trusting authority: LocalCertificateAuthority)
    throws(VerificationFailure) -> VerifiedNotification
  {
    try NotificationVerifier(apps: [Self.app], roots: [authority.root]).verify(
      signedPayload: signed)
  }

  @Test func aGoodChainWithANestedTransactionVerifies() throws {
    let ca = try LocalCertificateAuthority()
    let transaction = try ca.sign(payload: Self.transaction())
    let verified = try verify(
      try ca.sign(payload: Self.notification(transaction: transaction)), trusting: ca)
    #expect(verified.transaction?.transactionId == "2000000812345678")
    #expect(verified.payload.data?.consumptionRequestReason == .unintendedPurchase)
  }

  @Test func aChainToAnUntrustedRootIsRefused() throws {
    let signer = try LocalCertificateAuthority(name: "Forger")
    let trusted = try LocalCertificateAuthority()
    #expect(throws: VerificationFailure.self) {
      try verify(try signer.sign(payload: Self.notification()), trusting: trusted)
    }
  }

  @Test(arguments: [
    LocalCertificateAuthority.Flaws(leafWithoutOID: true),
    LocalCertificateAuthority.Flaws(intermediateWithoutOID: true),
  ])
  func certificatesWithoutApplesOIDsAreRefused(flaws: LocalCertificateAuthority.Flaws) throws {
    let ca = try LocalCertificateAuthority(flaws: flaws)
    #expect {
      try verify(try ca.sign(payload: Self.notification()), trusting: ca)
    } throws: { error in
      if case .missingAppleOID = error as? VerificationFailure { return true }
      return false
    }
  }

  /// The signing time is read before the signature is checked, from a payload anyone can make:
  /// one no certificate can hold is refused as malformed, from an untrusted chain too, and never
  /// reaches OpenSSL's `time_t` (a `1e30` there stopped the process).
  @Test(arguments: [
    "1e30", "-1e30", "253402300800000", "\"2026-11-30\"", "true",
  ])
  func aSigningTimeNoCertificateCanHoldIsRefusedBeforeTheChain(_ signedDate: String) throws {
    let forger = try LocalCertificateAuthority(name: "Forger")
    let trusted = try LocalCertificateAuthority()
    let payload = Data(
      #"{"notificationType":"CONSUMPTION_REQUEST","notificationUUID":"u","signedDate":\#(signedDate),"data":{"bundleId":"com.example.coins","appAppleId":1234567890,"environment":"Production"}}"#
        .utf8)
    for authority in [forger, trusted] {
      #expect {
        try verify(try authority.sign(payload: payload), trusting: trusted)
      } throws: { error in
        guard case .malformed(let detail) = error as? VerificationFailure else { return false }
        return detail.hasPrefix("signedDate")
      }
    }
  }

  @Test func aLeafExpiredWhenThePayloadWasSignedIsRefused() throws {
    let ca = try LocalCertificateAuthority(flaws: .init(expiredLeaf: true))
    #expect {
      try verify(try ca.sign(payload: Self.notification()), trusting: ca)
    } throws: { error in
      if case .certificateNotValidAtSigningTime = error as? VerificationFailure { return true }
      return false
    }
  }

  /// OpenSSL would build leaf ▶ root itself; Apple's chain is the one sent, through the
  /// intermediate whose OID was checked.
  @Test func aLeafNotIssuedByTheIntermediateSentWithItIsRefused() throws {
    let ca = try LocalCertificateAuthority(flaws: .init(leafSignedByRoot: true))
    #expect(
      throws: VerificationFailure.untrustedChain(
        "the leaf is not issued by the intermediate sent with it")
    ) {
      try verify(try ca.sign(payload: Self.notification()), trusting: ca)
    }
  }

  @Test func aChainOfTwoCertificatesIsRefused() throws {
    let ca = try LocalCertificateAuthority()
    let signed = try ca.sign(payload: Self.notification(), x5c: [ca.leaf, ca.intermediate])
    #expect(throws: VerificationFailure.invalidCertificateList("expected 3 certificates, found 2"))
    {
      try verify(signed, trusting: ca)
    }
  }

  @Test(arguments: ["none", "HS256", "RS256"])
  func algorithmsOtherThanES256AreRefused(algorithm: String) throws {
    let ca = try LocalCertificateAuthority()
    let signed = try ca.sign(payload: Self.notification(), algorithm: algorithm)
    #expect(throws: VerificationFailure.unsupportedAlgorithm(algorithm)) {
      try verify(signed, trusting: ca)
    }
  }

  @Test func aTamperedPayloadIsRefused() throws {
    let ca = try LocalCertificateAuthority()
    let signed = try ca.sign(payload: Self.notification())
    let parts = signed.split(separator: ".")
    let forged =
      parts[0] + "." + Base64URL.encode(Self.notification(bundleId: "com.example.coins")) + "."
      + parts[2]
    #expect(throws: VerificationFailure.invalidSignature) {
      try verify(String(forged), trusting: ca)
    }
  }

  @Test func aForgedInnerTransactionIsRefused() throws {
    let ca = try LocalCertificateAuthority()
    let forger = try LocalCertificateAuthority(name: "Forger")
    let transaction = try forger.sign(payload: Self.transaction())
    #expect(throws: VerificationFailure.self) {
      try verify(try ca.sign(payload: Self.notification(transaction: transaction)), trusting: ca)
    }
  }

  @Test func aHeaderAlreadyReadStillHasItsSignatureAndSigningTimeChecked() throws {
    let ca = try LocalCertificateAuthority()
    let verifier = NotificationVerifier(apps: [Self.app], roots: [ca.root])
    let good = try ca.sign(payload: Self.notification())
    _ = try verifier.verify(signedPayload: good)
    // The same header text (alg and x5c) with a payload it did not sign.
    let parts = good.split(separator: ".")
    let tampered = parts[0] + "." + Base64URL.encode(Self.notification()) + "." + parts[2]
    #expect(throws: VerificationFailure.invalidSignature) {
      try verifier.verify(signedPayload: String(tampered))
    }
    // A forger's signature under the trusted chain's header.
    let forger = try LocalCertificateAuthority(name: "Forger")
    let forged = try forger.sign(
      payload: Self.notification(), x5c: [ca.leaf, ca.intermediate, ca.root])
    #expect(forged.split(separator: ".")[0] == parts[0])
    #expect(throws: VerificationFailure.invalidSignature) {
      try verifier.verify(signedPayload: forged)
    }
    // Signed by the trusted leaf at a time its certificate does not cover.
    var late = try #require(
      JSONSerialization.jsonObject(with: Self.notification()) as? [String: Any])
    late["signedDate"] = Int64(
      Date().addingTimeInterval(20 * 365 * 86_400).timeIntervalSince1970 * 1000)
    #expect {
      try verifier.verify(
        signedPayload: try ca.sign(payload: try JSONSerialization.data(withJSONObject: late)))
    } throws: { error in
      if case .certificateNotValidAtSigningTime = error as? VerificationFailure { return true }
      return false
    }
    _ = try verifier.verify(signedPayload: try ca.sign(payload: Self.notification()))
  }

  struct IdentityCase: CustomTestStringConvertible, Sendable {
    let name: String
    let notification: Data
    var testDescription: String { name }
  }

  @Test(arguments: [
    IdentityCase(name: "wrong bundle", notification: notification(bundleId: "com.evil.app")),
    IdentityCase(name: "wrong app apple id", notification: notification(appAppleId: 42)),
    IdentityCase(name: "wrong environment", notification: notification(environment: "Sandbox")),
    IdentityCase(
      name: "xcode claimed but not allowed", notification: notification(environment: "Xcode")),
    IdentityCase(
      name: "inner transaction for another bundle",
      notification: notification(transaction: "INNER-OTHER-BUNDLE")),
  ])
  func aPayloadForAnotherAppOrEnvironmentIsRefused(_ example: IdentityCase) throws {
    let ca = try LocalCertificateAuthority()
    var payload = example.notification
    if let text = String(data: payload, encoding: .utf8), text.contains("INNER-OTHER-BUNDLE") {
      let inner = try ca.sign(payload: Self.transaction(bundleId: "com.evil.app"))
      payload = Data(text.replacingOccurrences(of: "INNER-OTHER-BUNDLE", with: inner).utf8)
    }
    #expect(throws: VerificationFailure.self) {
      try verify(try ca.sign(payload: payload), trusting: ca)
    }
  }

  /// A signed transaction that disagrees with its own notification is that payload's fault,
  /// not another app's: a dry-run stops on it rather than count it with other apps.
  @Test func aTransactionForAnotherBundleThanItsNotificationIsAMismatchNotAnotherApp() throws {
    let ca = try LocalCertificateAuthority()
    let inner = try ca.sign(payload: Self.transaction(bundleId: "com.evil.app"))
    let error = try #require(throws: VerificationFailure.self) {
      try verify(try ca.sign(payload: Self.notification(transaction: inner)), trusting: ca)
    }
    #expect(
      error
        == .transactionMismatch(
          field: "bundle id", notification: "com.example.coins", transaction: "com.evil.app"))
    #expect(!error.isAnotherApp)
  }

  @Test func aBodyWithoutSignedPayloadIsMalformed() throws {
    let ca = try LocalCertificateAuthority()
    let verifier = NotificationVerifier(apps: [Self.app], roots: [ca.root])
    #expect(throws: VerificationFailure.malformed("the body has no signedPayload")) {
      try verifier.verify(body: Data(#"{"payload":"x"}"#.utf8))
    }
  }
}
