import Foundation
import ReckonAppStore
import ReckonStandIn
import ReckonSupport
import ReckonTestSupport
import Testing

@Suite struct AppStoreJWTTests {
  let now = Date()

  func verifier(keyId: String = TestKey.keyId) throws -> JWTVerifier {
    try #require(
      JWTVerifier(
        publicKeyPEM: try TestKey.key().publicKeyPEM(),
        expected: .init(issuerId: TestKey.issuerId, keyId: keyId, bundleIds: [TestKey.bundleId])))
  }

  func token(bundleId: String = TestKey.bundleId, at date: Date? = nil) throws -> String {
    try AppStoreJWT(
      issuerId: TestKey.issuerId, keyId: TestKey.keyId, bundleId: bundleId, key: TestKey.key()
    ).token(now: date ?? now)
  }

  @Test func tokensVerifyWithThePublicKeyOnAnIndependentPath() throws {
    let verifier = try verifier()
    for _ in 0..<50 {  // r and s with leading zero bytes must still be padded to 32 bytes each
      #expect(verifier.problem(with: try token(), now: now) == nil)
    }
  }

  @Test func headerAndClaimsAreWhatAppleExpects() throws {
    let decoded = try #require(AppStoreJWT.decodeUnverified(try token()))
    #expect(
      decoded.header
        == .object(["alg": .string("ES256"), "kid": .string(TestKey.keyId), "typ": .string("JWT")]))
    let claims = try #require(decoded.claims.objectValue)
    #expect(claims["aud"] == .string("appstoreconnect-v1"))
    #expect(claims["iss"] == .string(TestKey.issuerId))
    #expect(claims["bid"] == .string(TestKey.bundleId))
    guard case .integer(let iat) = claims["iat"], case .integer(let exp) = claims["exp"] else {
      Issue.record("iat/exp are not integers")
      return
    }
    let seconds = Int(now.timeIntervalSince1970)
    #expect(iat == seconds - 60)
    #expect(exp == seconds + 300)
    #expect(exp - iat <= 3_600)
  }

  /// Apple answers 401 to a token issued in its future; a local clock up to a minute ahead of
  /// Apple's still makes a token issued in Apple's past, which the stand-in accepts.
  @Test func aClockAheadOfApplesStillIssuesTokensInApplesPast() throws {
    let ahead = try token(at: now.addingTimeInterval(59))
    let claims = try #require(AppStoreJWT.decodeUnverified(ahead)?.claims.objectValue)
    guard case .integer(let iat) = claims["iat"] else {
      Issue.record("iat is not an integer")
      return
    }
    #expect(iat <= Int(now.timeIntervalSince1970))
    #expect(
      try verifier().problem(with: try token(at: now.addingTimeInterval(90)), now: now) == nil)
  }

  /// The stand-in checks as Apple does: a token expired or valid for over 60 minutes is refused.
  @Test func theStandInRefusesAnExpiredOrTooLongToken() throws {
    let seconds = Int(now.timeIntervalSince1970)
    func signed(iat: Int, exp: Int) throws -> String {
      let header = Base64URL.encode(
        Data(#"{"alg":"ES256","kid":"\#(TestKey.keyId)","typ":"JWT"}"#.utf8))
      let claims = Base64URL.encode(
        Data(
          #"{"aud":"appstoreconnect-v1","bid":"\#(TestKey.bundleId)","exp":\#(exp),"iat":\#(iat),"iss":"\#(TestKey.issuerId)"}"#
            .utf8))
      let signature = try ES256Signer(key: try TestKey.key()).sign(Data("\(header).\(claims)".utf8))
      return "\(header).\(claims).\(Base64URL.encode(signature))"
    }
    let verifier = try verifier()
    #expect(
      verifier.problem(with: try signed(iat: seconds - 60, exp: seconds + 3_540), now: now) == nil)
    #expect(
      verifier.problem(with: try signed(iat: seconds - 60, exp: seconds + 3_541), now: now)
        == "exp is more than 60 minutes after iat")
    #expect(
      verifier.problem(with: try signed(iat: seconds - 400, exp: seconds), now: now)
        == "the token has expired")
  }

  @Test func aTamperedTokenFailsVerification() throws {
    let parts = try token().split(separator: ".").map(String.init)
    let claims = Base64URL.encode(
      Data(
        #"{"aud":"appstoreconnect-v1","bid":"com.example","exp":9999999999,"iat":1,"iss":"x"}"#.utf8
      ))
    #expect(try verifier().problem(with: "\(parts[0]).\(claims).\(parts[2])", now: now) != nil)
  }

  @Test func theWrongKidOrBundleOrAnExpiredTokenIsRefused() throws {
    #expect(try verifier(keyId: "OTHER").problem(with: try token(), now: now) == "kid is not OTHER")
    #expect(
      try verifier().problem(with: try token(bundleId: "com.other"), now: now)
        == "bid is not a known bundle")
    #expect(
      try verifier().problem(with: try token(at: now.addingTimeInterval(-600)), now: now)
        == "the token has expired")
  }

  @Test func aKeyThatIsNotPEMIsRefusedWithoutShowingItsContents() throws {
    let error = #expect(throws: SigningError.self) {
      try PrivateKey(pem: Data("secret-bytes".utf8), source: "bad.p8")
    }
    #expect(error?.description.contains("secret-bytes") == false)
    #expect(error?.description.contains("bad.p8") == true)
  }
}
