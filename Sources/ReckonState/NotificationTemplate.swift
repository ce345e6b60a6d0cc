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
  static func encode<Bytes: Collection<UInt8>>(
    _ bytes: Bytes, into output: inout [UInt8], url: Bool
  ) {
    let alphabet = url ? Self.url : standard
    output.reserveCapacity(output.count + (bytes.count + 2) / 3 * 4)
    var iterator = bytes.makeIterator()
    while let first = iterator.next() {
      let second = iterator.next()
      let third = iterator.next()
      let group = UInt32(first) << 16 | UInt32(second ?? 0) << 8 | UInt32(third ?? 0)
      output.append(alphabet[Int(group >> 18 & 63)])
      output.append(alphabet[Int(group >> 12 & 63)])
      if second != nil {
        output.append(alphabet[Int(group >> 6 & 63)])
      } else if !url {
        output.append(UInt8(ascii: "="))
      }
      if third != nil {
        output.append(alphabet[Int(group & 63)])
      } else if !url {
        output.append(UInt8(ascii: "="))
      }
    }
  }

  /// Whether `byte` is a base64url character.
  static func isURLCharacter(_ byte: UInt8) -> Bool { urlValues[Int(byte)] != 0xFF }

  /// `text` decoded when it is canonical unpadded base64url (the one encoding of its bytes:
  /// no other character, no impossible length, unused trailing bits zero); else nil.
  static func decodeURL(_ text: ArraySlice<UInt8>) -> [UInt8]? {
    guard text.count % 4 != 1 else { return nil }
    var output: [UInt8] = []
    output.reserveCapacity(text.count / 4 * 3 + 2)
    var accumulator: UInt32 = 0
    var bits: UInt32 = 0
    for character in text {
      let value = urlValues[Int(character)]
      guard value != 0xFF else { return nil }
      accumulator = accumulator << 6 | UInt32(value)
      bits += 6
      if bits >= 8 {
        bits -= 8
        output.append(UInt8(truncatingIfNeeded: accumulator >> bits))
        accumulator &= (1 << bits) - 1
      }
    }
    return accumulator == 0 ? output : nil
  }

  /// `text` decoded when it is standard padded base64 that encodes back to itself; else nil.
  static func decodeStandard(_ text: ArraySlice<UInt8>) -> Data? {
    guard let decoded = Data(base64Encoded: Data(text)), !decoded.isEmpty else { return nil }
    var again: [UInt8] = []
    encode(decoded, into: &again, url: false)
    return again.elementsEqual(text) ? decoded : nil
  }
}
