import Foundation
import ReckonGooglePlay
import ReckonSupport
import ReckonTestSupport
import Testing

@Suite struct RS256Tests {
  let key = GooglePlayWorld.accountKey

  @Test func aSignatureVerifiesWithThePublicHalf() throws {
    let message = Data("header.claims".utf8)
    let signature = try key.signRS256(message)
    #expect(signature.count == 256)
    #expect(try key.publicKey().verifiesRS256(signature: signature, message: message))
  }

  @Test func aChangedMessageOrSignatureDoesNotVerify() throws {
    let message = Data("header.claims".utf8)
    var signature = try key.signRS256(message)
    let publicKey = try key.publicKey()
    #expect(!publicKey.verifiesRS256(signature: signature, message: Data("header.claimz".utf8)))
    signature[10] ^= 0x01
    #expect(!publicKey.verifiesRS256(signature: signature, message: message))
    #expect(!publicKey.verifiesRS256(signature: Data(), message: message))
  }

  @Test func aKeyRebuiltFromItsJSONWebKeyVerifiesTheSameSignatures() throws {
    let message = Data("payload".utf8)
    let signature = try key.signRS256(message)
    let set = JSONWebKeySet(keys: ["k1": try key.publicKey()])
    let reread = try JSONWebKeySet(json: set.json())
    #expect(reread.keys["k1"]?.verifiesRS256(signature: signature, message: message) == true)
  }

  @Test func aPEMPrivateKeyRoundTripsAndAnEncryptedOneIsRefused() throws {
    let pem = key.pkcs8PEM()
    let reread = try RSAPrivateKey(pem: pem, source: "account.json")
    let message = Data("m".utf8)
    #expect(
      try key.publicKey().verifiesRS256(signature: reread.signRS256(message), message: message))
    #expect(throws: RSAKeyError.keyEncrypted(source: "k")) {
      try RSAPrivateKey(pem: "-----BEGIN ENCRYPTED PRIVATE KEY-----\n", source: "k")
    }
    #expect(throws: RSAKeyError.notAPrivateKey(source: "k")) {
      try RSAPrivateKey(pem: "not a key", source: "k")
    }
    #expect(!reread.description.contains("PRIVATE"))
  }

  @Test(arguments: [
    (#"{"keys": 3}"#, "no \"keys\" array"),
    (#"{"keys": [{"kty": "RSA"}]}"#, "a key without a \"kid\""),
    (
      #"{"keys": [{"kid": "a", "kty": "RSA", "n": "***", "e": "AQAB"}]}"#,
      "\"n\" and \"e\" must be base64url"
    ),
    (#"{"keys": [{"kid": "a", "kty": "EC", "crv": "P-256"}]}"#, "no RS256 key"),
    (
      #"{"keys": [{"kid": "a", "kty": "RSA", "alg": "RS512", "n": "AQAB", "e": "AQAB"}]}"#,
      "no RS256 key"
    ),
  ])
  func aKeySetThatHoldsNoUsableKeyIsRefused(json: String, reason: String) {
    #expect {
      try JSONWebKeySet(json: Data(json.utf8))
    } throws: { error in
      guard case .badJSONWebKey(_, let why) = error as? RSAKeyError else { return false }
      return why == reason
    }
  }

  @Test func aShortKeyInASetIsRefused() throws {
    // 512 bits of modulus: far below what RS256 from Google uses.
    let modulus = Base64URL.encode(Data([0xC1] + Array(repeating: 0x55, count: 63)))
    let json = #"{"keys": [{"kid": "short", "kty": "RSA", "n": "\#(modulus)", "e": "AQAB"}]}"#
    #expect(
      throws: RSAKeyError.badJSONWebKey(
        keyId: "short", reason: "a 512-bit key is too short for RS256")
    ) {
      try JSONWebKeySet(json: Data(json.utf8))
    }
  }
}
