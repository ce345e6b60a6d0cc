import Foundation

/// Base64url without padding (RFC 7515 §2), as JWS uses.
public enum Base64URL {
  /// Encodes `data`.
  public static func encode(_ data: Data) -> String {
    data.base64EncodedString()
      .replacingOccurrences(of: "+", with: "-")
      .replacingOccurrences(of: "/", with: "_")
      .replacingOccurrences(of: "=", with: "")
  }

  /// Decodes `text`, or nil when it is not base64url.
  public static func decode(_ text: some StringProtocol) -> Data? {
    var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(
      of: "_", with: "/")
    guard !base64.contains("=") else { return nil }
    base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
    return Data(base64Encoded: base64)
  }
}
