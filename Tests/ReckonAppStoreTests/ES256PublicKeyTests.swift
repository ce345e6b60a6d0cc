import Foundation
import ReckonAppStore
import Testing

/// A public key read from PEM checks the signatures its private half makes, and nothing else.
struct ES256PublicKeyTests {
  @Test func aSignatureByThePrivateHalfVerifiesAndATamperedOneDoesNot() throws {
    let key = try PrivateKey(generatedFor: "a test")
    let message = Data("header.claims".utf8)
    let signature = try ES256Signer(key: key).sign(message)
    let publicKey = try #require(ES256PublicKey(pem: key.publicKeyPEM()))
    #expect(publicKey.verifies(signature: signature, message: message))
    #expect(!publicKey.verifies(signature: signature, message: Data("header.claimz".utf8)))
    var flipped = signature
    flipped[10] ^= 0x01
    #expect(!publicKey.verifies(signature: flipped, message: message))
    #expect(!publicKey.verifies(signature: signature.prefix(63), message: message))
  }

  @Test func anotherKeysSignatureDoesNotVerify() throws {
    let message = Data("header.claims".utf8)
    let signature = try ES256Signer(key: try PrivateKey(generatedFor: "one")).sign(message)
    let other = try #require(
      ES256PublicKey(pem: try PrivateKey(generatedFor: "two").publicKeyPEM()))
    #expect(!other.verifies(signature: signature, message: message))
  }

  @Test(arguments: [
    "", "not a key", "-----BEGIN PUBLIC KEY-----\nAAAA\n-----END PUBLIC KEY-----\n",
  ])
  func textThatHoldsNoKeyIsRefused(_ pem: String) {
    #expect(ES256PublicKey(pem: pem) == nil)
  }
}
