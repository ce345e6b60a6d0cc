import Foundation
import ReckonSupport

/// Builds a packed notification's template: JSON text is scanned for strings shaped as compact
/// JWS, each JWS part is decoded (its header's x5c certificates taken out, its payload scanned
/// again for nested JWS), and everything else kept as literal bytes. Anything not exactly as
/// expected stays literal, so packing never changes what the template expands to.
struct NotificationPacker {
  private(set) var template: [UInt8] = []
  private(set) var certificates: [Data] = []
  /// Whether any JWS was found: without one there is nothing to pack.
  private(set) var packedAny = false
  private var pending: [UInt8] = []

  /// How deep JWS may nest: a notification's payload holds the transaction's and the renewal
  /// info's, which hold none.
  static let deepest = 3

  private static let quote = UInt8(ascii: "\"")
  private static let backslash = UInt8(ascii: "\\")
  private static let dot = UInt8(ascii: ".")

  /// Writes `text` (JSON, or anything), each string in it that is a compact JWS packed.
  mutating func text(_ text: ArraySlice<UInt8>, depth: Int) {
    var copied = text.startIndex
    if depth < Self.deepest {
      let strings = text.withUnsafeBufferPointer { Self.jwsShapedStrings(in: $0) }
      for string in strings {
        let range = (text.startIndex + string.lowerBound)..<(text.startIndex + string.upperBound)
        guard let parts = JWSParts(text[range]) else { continue }
        literal(text[copied..<range.lowerBound])
        jws(parts, depth: depth)
        copied = range.upperBound
      }
    }
    literal(text[copied...])
  }

  /// Where the JSON strings in `bytes` that could be a compact JWS lie (their text, quotes
  /// excluded): only base64url characters, and two dots. A string with an escape is none.
  private static func jwsShapedStrings(in bytes: UnsafeBufferPointer<UInt8>) -> [Range<Int>] {
    guard let base = bytes.baseAddress else { return [] }
    var found: [Range<Int>] = []
    // A notification is kilobytes of such strings: quotes are found with `memchr`, and each
    // string's bytes classed through a table without a branch per byte.
    characterClasses.withUnsafeBufferPointer { classes in
      var index = 0
      while let open = bytes.firstOffset(of: quote, from: index) {
        let start = open + 1
        guard var end = bytes.firstOffset(of: quote, from: start) else { return }
        var other: UInt8 = 0
        var dots = 0
        for offset in start..<end {
          let kind = classes[Int(base[offset])]
          other |= kind
          dots &+= Int(kind & 1)
        }
        if other & 2 != 0 {
          // Not a JWS; and an escaped quote would not end the string.
          end = stringEnd(in: bytes, from: start)
          guard end < bytes.count else { return }
        } else if dots == 2 {
          found.append(start..<end)
        }
        index = end + 1
      }
    }
    return found
  }

  /// Per byte: 0 for a base64url character, 1 for a dot, 2 for any other (a backslash too).
  private static let characterClasses: [UInt8] = Base64Bytes.urlTable.enumerated().map {
    byte, value in byte == Int(dot) ? 1 : value == 0xFF ? 2 : 0
  }

  /// Where the JSON string whose text begins at `start` ends (its closing quote, escapes
  /// skipped), or the end of `bytes` when it does not.
  private static func stringEnd(in bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
    var end = start
    while end < bytes.count, bytes[end] != quote {
      if bytes[end] == backslash { end += 1 }
      end += 1
    }
    return min(end, bytes.count)
  }

  /// Ends the pending literal, so the template is complete.
  mutating func flush() {
    guard !pending.isEmpty else { return }
    template.append(Segment.literal.rawValue)
    VarInt.append(UInt64(pending.count), to: &template)
    template += pending
    pending.removeAll(keepingCapacity: true)
  }

  private mutating func jws(_ parts: JWSParts, depth: Int) {
    packedAny = true
    open()
    header(parts.header)
    close()
    literal(CollectionOfOne(Self.dot))
    open()
    text(parts.payload[...], depth: depth + 1)
    close()
    literal(CollectionOfOne(Self.dot))
    open()
    literal(parts.signature)
    close()
  }

  /// Writes a JWS header, each certificate of its x5c array taken out.
  private mutating func header(_ header: [UInt8]) {
    let bytes = header[...]
    guard var index = Self.x5cArray(in: bytes) else {
      literal(bytes)
      return
    }
    var copied = bytes.startIndex
    while true {
      index = Self.skippingSpace(bytes, from: index)
      guard index < bytes.endIndex, bytes[index] == Self.quote else { break }
      let start = index + 1
      guard let end = Self.plainStringEnd(bytes, from: start) else { break }
      if let der = Base64Bytes.decodeStandard(bytes[start..<end]) {
        literal(bytes[copied..<start])
        certificate(der)
        copied = end
      }
      index = Self.skippingSpace(bytes, from: end + 1)
      guard index < bytes.endIndex, bytes[index] == UInt8(ascii: ",") else { break }
      index += 1
    }
    literal(bytes[copied...])
  }

  /// Where the first element of the header's `"x5c": [` array may start.
  private static func x5cArray(in bytes: ArraySlice<UInt8>) -> Int? {
    let key = Array(#""x5c""#.utf8)
    guard let found = bytes.indices.first(where: { bytes[$0...].starts(with: key) }) else {
      return nil
    }
    var index = skippingSpace(bytes, from: found + key.count)
    guard index < bytes.endIndex, bytes[index] == UInt8(ascii: ":") else { return nil }
    index = skippingSpace(bytes, from: index + 1)
    guard index < bytes.endIndex, bytes[index] == UInt8(ascii: "[") else { return nil }
    return index + 1
  }

  private static func skippingSpace(_ bytes: ArraySlice<UInt8>, from index: Int) -> Int {
    bytes[min(index, bytes.endIndex)...].firstIndex { byte in
      byte != 0x20 && byte != 0x09 && byte != 0x0A && byte != 0x0D
    } ?? bytes.endIndex
  }

  /// The closing quote of the JSON string whose text begins at `start`, when no backslash comes
  /// before it; nil otherwise (or when there is none).
  private static func plainStringEnd(_ bytes: ArraySlice<UInt8>, from start: Int) -> Int? {
    bytes.withUnsafeBufferPointer { buffer -> Int? in
      let from = start - bytes.startIndex
      guard let end = buffer.firstOffset(of: quote, from: from) else { return nil }
      let rest = UnsafeBufferPointer(rebasing: buffer[from..<end])
      guard rest.firstOffset(of: backslash) == nil else { return nil }
      return bytes.startIndex + end
    }
  }

  private mutating func literal<Bytes: Collection<UInt8>>(_ bytes: Bytes) {
    pending.append(contentsOf: bytes)
  }

  private mutating func certificate(_ der: Data) {
    flush()
    let index =
      certificates.firstIndex(of: der)
      ?? {
        certificates.append(der)
        return certificates.count - 1
      }()
    template.append(Segment.certificate.rawValue)
    VarInt.append(UInt64(index), to: &template)
  }

  private mutating func open() {
    flush()
    template.append(Segment.begin.rawValue)
  }

  private mutating func close() {
    flush()
    template.append(Segment.end.rawValue)
  }
}

/// The three parts of a compact JWS, decoded; nil for a string that is not one (a part that is
/// not canonical base64url, a header that is not a JSON object).
struct JWSParts {
  let header: [UInt8]
  let payload: [UInt8]
  let signature: [UInt8]

  init?(_ token: ArraySlice<UInt8>) {
    // The dots found with `memchr`: the payload part of a notification is kilobytes long.
    let dot = UInt8(ascii: ".")
    let dots = token.withUnsafeBufferPointer { buffer -> (Int, Int)? in
      guard let first = buffer.firstOffset(of: dot),
        let second = buffer.firstOffset(of: dot, from: first + 1),
        buffer.firstOffset(of: dot, from: second + 1) == nil
      else { return nil }
      return (token.startIndex + first, token.startIndex + second)
    }
    guard let (first, second) = dots,
      first - token.startIndex >= 4, second > first + 1,
      let header = Base64Bytes.decodeURL(token[..<first]), header.first == UInt8(ascii: "{"),
      let payload = Base64Bytes.decodeURL(token[(first + 1)..<second]),
      let signature = Base64Bytes.decodeURL(token[(second + 1)...])
    else { return nil }
    self.header = header
    self.payload = payload
    self.signature = signature
  }
}
