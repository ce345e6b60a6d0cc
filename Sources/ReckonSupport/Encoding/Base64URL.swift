import Foundation

/// Base64url without padding (RFC 7515 §2), as JWS uses. Works on bytes: Foundation's string
/// replacing goes through UTF-16 on Linux and was most of the cost of verifying a notification.
public enum Base64URL {
  /// Encodes `data`.
  public static func encode(_ data: Data) -> String {
    var bytes: [UInt8] = []
    bytes.reserveCapacity((data.count + 2) / 3 * 4)
    for byte in data.base64EncodedData() {
      switch byte {
      case UInt8(ascii: "+"): bytes.append(UInt8(ascii: "-"))
      case UInt8(ascii: "/"): bytes.append(UInt8(ascii: "_"))
      case UInt8(ascii: "="): continue
      default: bytes.append(byte)
      }
    }
    return String(decoding: bytes, as: UTF8.self)
  }

  /// Decodes `text`, or nil when it is not base64url.
  public static func decode(_ text: some StringProtocol) -> Data? {
    if case let decoded?? = text.utf8.withContiguousStorageIfAvailable(decodeCanonical) {
      return decoded
    }
    // Anything unusual (padding, the standard alphabet, stray bits) is judged by Foundation as
    // before, so the fast path changes no verdict.
    var bytes: [UInt8] = []
    bytes.reserveCapacity(text.utf8.count + 3)
    for byte in text.utf8 {
      switch byte {
      case UInt8(ascii: "-"): bytes.append(UInt8(ascii: "+"))
      case UInt8(ascii: "_"): bytes.append(UInt8(ascii: "/"))
      case UInt8(ascii: "="): return nil
      default: bytes.append(byte)
      }
    }
    bytes += repeatElement(UInt8(ascii: "="), count: (4 - bytes.count % 4) % 4)
    return Data(base64Encoded: Data(bytes))
  }

  /// Decodes canonical unpadded base64url by table, or returns nil for anything else.
  private static func decodeCanonical(_ text: UnsafeBufferPointer<UInt8>) -> Data? {
    Base64Bytes.decodeURL(text).map { Data($0) }
  }
}
