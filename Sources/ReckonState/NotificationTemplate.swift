import Foundation
import ReckonSupport

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
  /// `expectedCount`, when known, is the notification's length, reserved at once.
  static func expand<Bytes: Collection<UInt8>>(
    _ template: Bytes, certificates: [Data], expectedCount: Int = 0
  ) -> [UInt8]? {
    // The output of each open `begin`, innermost last; the first is the notification.
    var levels: [[UInt8]] = [[]]
    levels[0].reserveCapacity(expectedCount)
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
