import Foundation
import ReckonGooglePlay
import ReckonSupport
import Testing

@Suite struct PushTokenVerifierTests {
  static let identity = try! LocalGoogleIdentity()
  static let audience = "https://reckon.example.com/google/rtdn"
  static let email = "play-push@example-project.iam.gserviceaccount.com"
  let now = Date(timeIntervalSince1970: 1_796_000_000)

  func verifier() throws -> PushTokenVerifier {
    PushTokenVerifier(
      expected: PushTokenExpectations(audience: Self.audience, serviceAccountEmail: Self.email),
      keys: GoogleSigningKeys(.fixed(try Self.identity.keySet())))
  }

  func token(claims: [String: JSONValue] = [:], header: [String: JSONValue] = [:]) throws
    -> String
  {
    "Bearer "
      + (try Self.identity.token(
        audience: Self.audience, email: Self.email, issuedAt: now, claims: claims, header: header))
  }

  @Test func aTokenGoogleWouldSignIsAccepted() async throws {
    let subject = try await verifier().verify(authorization: try token(), now: now)
    #expect(subject == "1234567890")
  }

  /// The scheme is case-insensitive, and an audience may be a list holding the configured one.
  @Test func aLowerCaseSchemeAndAnAudienceListAreAccepted() async throws {
    let bearer = try token(claims: ["aud": .array([.string("other"), .string(Self.audience)])])
    _ = try await verifier().verify(authorization: "bearer " + bearer.dropFirst(7), now: now)
    let elsewhere = try token(claims: ["aud": .array([.string("other")])])
    await #expect(throws: PushVerificationFailure.wrongAudience("other")) {
      try await verifier().verify(authorization: elsewhere, now: now)
    }
  }

  @Test func theIssuerWithoutTheSchemeIsGooglesToo() async throws {
    _ = try await verifier().verify(
      authorization: try token(claims: ["iss": .string("accounts.google.com")]), now: now)
  }

  @Test(arguments: [
    (
      ["aud": JSONValue.string("https://elsewhere.example.com")],
      PushVerificationFailure.wrongAudience("https://elsewhere.example.com")
    ),
    (["iss": .string("https://evil.example.com")], .wrongIssuer("https://evil.example.com")),
    (["email": .string("someone@example.com")], .wrongServiceAccount("someone@example.com")),
    (
      ["email_verified": .bool(false)],
      .wrongServiceAccount("\(email) (email_verified is not true)")
    ),
    (["exp": .integer(1_796_000_000 - 301)], .outsideValidity("has expired")),
    (["iat": .integer(1_796_000_000 + 301)], .outsideValidity("is issued in the future")),
    (["exp": .string("soon")], .outsideValidity("has no whole-second exp and iat")),
  ])
  func aTokenWithAWrongClaimIsRefused(claims: [String: JSONValue], failure: PushVerificationFailure)
    async throws
  {
    let authorization = try token(claims: claims)
    await #expect(throws: failure) {
      try await verifier().verify(authorization: authorization, now: now)
    }
  }

  @Test func aTokenWithinTheSkewOfExpiryIsStillAccepted() async throws {
    _ = try await verifier().verify(
      authorization: try token(claims: ["exp": .integer(1_796_000_000 - 299)]), now: now)
  }

  @Test func noneAndHMACAreNeverAccepted() async throws {
    for alg in ["none", "HS256"] {
      let authorization = try token(header: ["alg": .string(alg)])
      await #expect(throws: PushVerificationFailure.wrongAlgorithm(alg)) {
        try await verifier().verify(authorization: authorization, now: now)
      }
    }
  }

  @Test func aTokenSignedByAnotherKeyUnderAKnownIdIsRefused() async throws {
    let impostor = try LocalGoogleIdentity(keyId: Self.identity.keyId)
    let authorization =
      "Bearer " + (try impostor.token(audience: Self.audience, email: Self.email, issuedAt: now))
    await #expect(throws: PushVerificationFailure.badSignature) {
      try await verifier().verify(authorization: authorization, now: now)
    }
  }

  @Test func aTokenNamingAnUnknownKeyIsRefused() async throws {
    let authorization = try token(header: ["kid": .string("rotated-away")])
    await #expect(throws: PushVerificationFailure.unknownKey("rotated-away")) {
      try await verifier().verify(authorization: authorization, now: now)
    }
  }

  @Test(arguments: [nil, "Basic dXNlcjpwYXNz", "Bearer ", "Bearer a.b", "Bearer !!.??.**"])
  func aPushWithoutAWellFormedTokenIsRefused(authorization: String?) async throws {
    await #expect(throws: PushVerificationFailure.self) {
      try await verifier().verify(authorization: authorization, now: now)
    }
  }
}
