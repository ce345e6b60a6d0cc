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

  /// The value of each base64url character, 0xFF for anything else.
  private static let values: [UInt8] = {
    var table = [UInt8](repeating: 0xFF, count: 256)
    for (index, character) in Array(
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8
    ).enumerated() {
      table[Int(character)] = UInt8(index)
    }
    return table
  }()

  /// Decodes canonical unpadded base64url by table (a notification holds kilobytes of it), or
  /// returns nil for anything else: a character outside the alphabet, a length no encoding has,
  /// or unused trailing bits that are not zero.
  private static func decodeCanonical(_ text: UnsafeBufferPointer<UInt8>) -> Data? {
    let count = text.count
    guard count % 4 != 1 else { return nil }
    return values.withUnsafeBufferPointer { values -> Data? in
      var valid = true
      var accumulator: UInt32 = 0
      var bits: UInt32 = 0
      let output = [UInt8](unsafeUninitializedCapacity: count / 4 * 3 + 2) { buffer, written in
        for character in text {
          let value = values[Int(character)]
          guard value != 0xFF else {
            valid = false
            break
          }
          accumulator = (accumulator << 6) | UInt32(value)
          bits += 6
          if bits >= 8 {
            bits -= 8
            buffer[written] = UInt8(truncatingIfNeeded: accumulator >> bits)
            written += 1
            accumulator &= (1 << bits) - 1
          }
        }
      }
      guard valid, accumulator == 0 else { return nil }
      return Data(output)
    }
  }
}
