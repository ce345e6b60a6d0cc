import Foundation

/// Base64url without padding, as JWS and JWT use it (RFC 7515 §2).
public enum Base64URL {
  /// Encodes bytes as base64url without padding.
  public static func encode(_ data: Data) -> String {
    data.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
      .replacingOccurrences(of: "=", with: "")
  }

  /// Decodes base64url with or without padding; nil if it is not base64url.
  public static func decode(_ text: Substring) -> Data? {
    guard text.utf8.allSatisfy({ Base64URL.isAlphabet($0) }) else { return nil }
    var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
    let remainder = base64.utf8.count % 4
    if remainder == 1 { return nil }
    if remainder > 0 { base64 += String(repeating: "=", count: 4 - remainder) }
    return Data(base64Encoded: base64)
  }

  private static func isAlphabet(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
      UInt8(ascii: "-"), UInt8(ascii: "_"):
      true
    default: false
    }
  }
}
