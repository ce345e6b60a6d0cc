import Foundation
import ReckonSupport

/// RSA signing keys by key id, as Google publishes them for its OpenID tokens
/// (`https://www.googleapis.com/oauth2/v3/certs`: `{"keys": [{"kid", "kty", "n", "e", ...}]}`).
public struct JSONWebKeySet: Sendable {
  /// The keys by `kid`.
  public let keys: [String: RSAPublicKey]

  /// A set of the given keys.
  public init(keys: [String: RSAPublicKey]) {
    self.keys = keys
  }

  /// Parses a JWKS document. Keys that are not RSA signing keys (another `kty`, `use` other than
  /// `sig`, `alg` other than RS256) are left out; a malformed RSA key is an error, as is a set
  /// with no usable key.
  public init(json: Data) throws(RSAKeyError) {
    let root: JSONValue
    do throws(JSONParseError) { root = try JSONValue.parse(json) } catch {
      throw .badJSONWebKey(keyId: "set", reason: "not JSON: \(error.description)")
    }
    guard case .array(let entries)? = root.objectValue?["keys"] else {
      throw .badJSONWebKey(keyId: "set", reason: "no \"keys\" array")
    }
    var keys: [String: RSAPublicKey] = [:]
    for entry in entries {
      guard let members = entry.objectValue, case .string(let kid)? = members["kid"] else {
        throw .badJSONWebKey(keyId: "set", reason: "a key without a \"kid\"")
      }
      guard members["kty"] == .string("RSA") else { continue }
      if let use = members["use"], use != .string("sig") { continue }
      if let alg = members["alg"], alg != .string("RS256") { continue }
      guard case .string(let n)? = members["n"], case .string(let e)? = members["e"],
        let modulus = Base64URL.decode(n), let exponent = Base64URL.decode(e),
        !modulus.isEmpty, !exponent.isEmpty
      else { throw .badJSONWebKey(keyId: kid, reason: "\"n\" and \"e\" must be base64url") }
      let key = try RSAPublicKey(modulus: modulus, exponent: exponent)
      guard key.bits >= 2048 else {
        throw .badJSONWebKey(keyId: kid, reason: "a \(key.bits)-bit key is too short for RS256")
      }
      keys[kid] = key
    }
    guard !keys.isEmpty else { throw .badJSONWebKey(keyId: "set", reason: "no RS256 key") }
    self.keys = keys
  }

  /// The set as a JWKS document, for a stand-in's certificate endpoint or a keys file.
  public func json() -> Data {
    let entries: [JSONValue] = keys.keys.sorted().compactMap { kid in
      guard let (modulus, exponent) = keys[kid]?.components() else { return nil }
      return .object([
        "kid": .string(kid), "kty": .string("RSA"), "alg": .string("RS256"),
        "use": .string("sig"), "n": .string(Base64URL.encode(modulus)),
        "e": .string(Base64URL.encode(exponent)),
      ])
    }
    return GooglePlayJSON.encode(JSONValue.object(["keys": .array(entries)]))
  }
}
