import Foundation

/// The segments of a packed notification, one byte of kind each, and how they expand.
enum Segment: UInt8 {
  /// A length (varint), then that many bytes, as they are.
  case literal = 0
  /// An index (varint) into the certificates: that certificate's DER in standard base64.
  case certificate = 1
  /// What follows, up to the matching `end`, expands and is then written in base64url.
  case begin = 2
  /// Ends the innermost `begin`.
  case end = 3
}

/// Expands a packed notification's segments.
enum NotificationTemplate {
  /// The bytes `template` stands for, or nil when it is not a template (an unknown kind, a
  /// length past its end, an index with no certificate, an unmatched `begin` or `end`).
  static func expand<Bytes: Collection<UInt8>>(_ template: Bytes, certificates: [Data])
    -> [UInt8]?
  {
    // The output of each open `begin`, innermost last; the first is the notification.
    var levels: [[UInt8]] = [[]]
    var offset = template.startIndex
    while offset < template.endIndex {
      guard let kind = Segment(rawValue: template[offset]) else { return nil }
      offset = template.index(after: offset)
      switch kind {
      case .literal:
        guard let count = VarInt.read(template, at: &offset),
          count <= template.distance(from: offset, to: template.endIndex)
        else { return nil }
        let end = template.index(offset, offsetBy: Int(count))
        levels[levels.count - 1].append(contentsOf: template[offset..<end])
        offset = end
      case .certificate:
        guard let index = VarInt.read(template, at: &offset), index < certificates.count else {
          return nil
        }
        Base64Bytes.encode(certificates[Int(index)], into: &levels[levels.count - 1], url: false)
      case .begin:
        levels.append([])
      case .end:
        guard levels.count > 1 else { return nil }
        let inner = levels.removeLast()
        Base64Bytes.encode(inner, into: &levels[levels.count - 1], url: true)
      }
    }
    return levels.count == 1 ? levels[0] : nil
  }
}

/// Base64 written into and read from byte arrays: a notification holds kilobytes of it, and
/// packing and unpacking go through all of them.
enum Base64Bytes {
  private static let standard = Array(
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
  private static let url = Array(
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)
  private static let urlValues: [UInt8] = {
    var table = [UInt8](repeating: 0xFF, count: 256)
    for (index, character) in url.enumerated() { table[Int(character)] = UInt8(index) }
    return table
  }()

  /// Appends `bytes` encoded: base64url without padding (JWS) when `url`, else standard base64
  /// with padding (x5c).
  static func encode(_ bytes: UnsafeRawBufferPointer, into output: inout [UInt8], url: Bool) {
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
  static func encode(_ bytes: [UInt8], into output: inout [UInt8], url: Bool) {
    bytes.withUnsafeBytes { encode($0, into: &output, url: url) }
  }

  /// Appends `bytes` encoded, as `encode(_:into:url:)` does.
  static func encode(_ bytes: Data, into output: inout [UInt8], url: Bool) {
    bytes.withUnsafeBytes { encode($0, into: &output, url: url) }
  }

  /// The value of each base64url character, 0xFF for anything else.
  static var urlTable: [UInt8] { urlValues }

  /// `text` decoded when it is canonical unpadded base64url (the one encoding of its bytes:
  /// no other character, no impossible length, unused trailing bits zero); else nil.
  static func decodeURL(_ text: ArraySlice<UInt8>) -> [UInt8]? {
    guard text.count % 4 != 1 else { return nil }
    let count = text.count / 4 * 3 + max(0, text.count % 4 - 1)
    var valid = true
    var accumulator: UInt32 = 0
    var bits: UInt32 = 0
    let output = urlValues.withUnsafeBufferPointer { values in
      [UInt8](unsafeUninitializedCapacity: count) { buffer, written in
        text.withUnsafeBufferPointer { text in
          for character in text {
            let value = values[Int(character)]
            guard value != 0xFF else {
              valid = false
              return
            }
            accumulator = accumulator << 6 | UInt32(value)
            bits += 6
            if bits >= 8 {
              bits -= 8
              buffer[written] = UInt8(truncatingIfNeeded: accumulator >> bits)
              written += 1
              accumulator &= (1 << bits) - 1
            }
          }
        }
      }
    }
    return valid && accumulator == 0 ? output : nil
  }

  /// `text` decoded when it is standard padded base64 that encodes back to itself; else nil.
  static func decodeStandard(_ text: ArraySlice<UInt8>) -> Data? {
    guard let decoded = Data(base64Encoded: Data(text)), !decoded.isEmpty else { return nil }
    // Foundation accepts what the one encoding of the bytes is not (whitespace, say): only
    // bytes that encode back to the text are taken out.
    var again: [UInt8] = []
    encode(decoded, into: &again, url: false)
    return again.elementsEqual(text) ? decoded : nil
  }
}
