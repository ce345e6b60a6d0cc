import Foundation

/// Base64 written into and read from byte arrays: a notification holds kilobytes of it, which
/// verifying it, packing it for the state and unpacking it go through.
package enum Base64Bytes {
  private static let standard = Array(
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
  private static let url = Array(
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)
  private static let urlValues = values(of: url)
  private static let standardValues = values(of: standard)

  /// The value of each character of `alphabet`, 0xFF for any other byte.
  private static func values(of alphabet: [UInt8]) -> [UInt8] {
    var table = [UInt8](repeating: 0xFF, count: 256)
    for (index, character) in alphabet.enumerated() { table[Int(character)] = UInt8(index) }
    return table
  }

  /// Appends `bytes` encoded: base64url without padding (JWS) when `url`, else standard base64
  /// with padding (x5c).
  package static func encode(_ bytes: UnsafeRawBufferPointer, into output: inout [UInt8], url: Bool)
  {
    let alphabet = url ? Self.url : standard
    let count = bytes.count
    let full = count / 3 * 3
    let rest = count - full
    let length = full / 3 * 4 + (rest == 0 ? 0 : url ? rest + 1 : 4)
    let start = output.count
    output.append(contentsOf: repeatElement(0, count: length))
    alphabet.withUnsafeBufferPointer { alphabet in
      output.withUnsafeMutableBufferPointer { buffer in
        var at = start
        var index = 0
        while index < full {
          let group =
            UInt32(bytes[index]) << 16 | UInt32(bytes[index + 1]) << 8
            | UInt32(bytes[index + 2])
          buffer[at] = alphabet[Int(group >> 18 & 63)]
          buffer[at + 1] = alphabet[Int(group >> 12 & 63)]
          buffer[at + 2] = alphabet[Int(group >> 6 & 63)]
          buffer[at + 3] = alphabet[Int(group & 63)]
          at += 4
          index += 3
        }
        guard rest > 0 else { return }
        let group = UInt32(bytes[index]) << 16 | (rest == 2 ? UInt32(bytes[index + 1]) << 8 : 0)
        buffer[at] = alphabet[Int(group >> 18 & 63)]
        buffer[at + 1] = alphabet[Int(group >> 12 & 63)]
        if rest == 2 {
          buffer[at + 2] = alphabet[Int(group >> 6 & 63)]
        } else if !url {
          buffer[at + 2] = UInt8(ascii: "=")
        }
        if !url { buffer[at + 3] = UInt8(ascii: "=") }
      }
    }
  }

  /// Appends `bytes` encoded, as `encode(_:into:url:)` does.
  package static func encode(_ bytes: [UInt8], into output: inout [UInt8], url: Bool) {
    bytes.withUnsafeBytes { encode($0, into: &output, url: url) }
  }

  /// Appends `bytes` encoded, as `encode(_:into:url:)` does.
  package static func encode(_ bytes: Data, into output: inout [UInt8], url: Bool) {
    bytes.withUnsafeBytes { encode($0, into: &output, url: url) }
  }

  /// The value of each base64url character, 0xFF for anything else.
  package static var urlTable: [UInt8] { urlValues }

  /// `text` decoded when it is canonical unpadded base64url (the one encoding of its bytes:
  /// no other character, no impossible length, unused trailing bits zero); else nil.
  package static func decodeURL(_ text: ArraySlice<UInt8>) -> [UInt8]? {
    text.withUnsafeBufferPointer { decodeURL($0) }
  }

  /// `text` decoded when it is canonical unpadded base64url, as for a slice.
  package static func decodeURL(_ text: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
    decode(text, values: urlValues)
  }

  /// `text` decoded when it is standard padded base64, the one encoding of its bytes (padded
  /// to a multiple of four, no other character, unused trailing bits zero), and not empty.
  package static func decodeStandard(_ text: ArraySlice<UInt8>) -> Data? {
    let padding = text.reversed().prefix(2).prefix { $0 == UInt8(ascii: "=") }.count
    guard !text.isEmpty, text.count % 4 == 0 else { return nil }
    return text.withUnsafeBufferPointer { text in
      decode(UnsafeBufferPointer(rebasing: text[..<(text.count - padding)]), values: standardValues)
        .map { Data($0) }
    }
  }

  /// `text` decoded by the character values `values` when it is the one unpadded encoding of
  /// its bytes; else nil.
  private static func decode(_ text: UnsafeBufferPointer<UInt8>, values: [UInt8]) -> [UInt8]? {
    guard text.count % 4 != 1 else { return nil }
    let groups = text.count / 4
    let tail = text.count % 4
    let count = groups * 3 + max(0, tail - 1)
    // Four characters make three bytes at a time: a notification is three signed payloads of
    // some kilobytes each, decoded on every request. A character outside the alphabet has the
    // table's 0xFF, whose top bits no valid value has; they are collected and tested once.
    var seen: UInt32 = 0
    var strayBits: UInt32 = 0
    let output = values.withUnsafeBufferPointer { values in
      [UInt8](unsafeUninitializedCapacity: count) { buffer, written in
        func value(_ index: Int) -> UInt32 { UInt32(values[Int(text[index])]) }
        var input = 0
        for _ in 0..<groups {
          let (a, b, c, d) = (value(input), value(input + 1), value(input + 2), value(input + 3))
          seen |= a | b | c | d
          let word = a << 18 | b << 12 | c << 6 | d
          buffer[written] = UInt8(truncatingIfNeeded: word >> 16)
          buffer[written + 1] = UInt8(truncatingIfNeeded: word >> 8)
          buffer[written + 2] = UInt8(truncatingIfNeeded: word)
          written += 3
          input += 4
        }
        // Two characters left are 12 bits, a byte and four that must be 0; three are 18 bits,
        // two bytes and two that must be 0: anything else is not the one encoding of the bytes.
        if tail >= 2 {
          let (a, b) = (value(input), value(input + 1))
          let c = tail == 3 ? value(input + 2) : 0
          seen |= a | b | c
          let word = a << 18 | b << 12 | c << 6
          buffer[written] = UInt8(truncatingIfNeeded: word >> 16)
          written += 1
          if tail == 3 {
            buffer[written] = UInt8(truncatingIfNeeded: word >> 8)
            written += 1
          }
          strayBits = tail == 3 ? c & 0x03 : b & 0x0F
        }
      }
    }
    return seen & 0xC0 == 0 && strayBits == 0 ? output : nil
  }
}
