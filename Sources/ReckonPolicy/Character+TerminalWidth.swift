/// How many terminal cells a character takes, so a caret can be placed under it.
extension Character {
  /// 2 for emoji and East Asian wide or fullwidth characters, 0 for invisible format characters
  /// (zero width space, byte order mark), 1 otherwise. Worked out from the stdlib's Unicode
  /// properties and the few blocks they do not cover, rather than from a copy of the Unicode
  /// width table: an approximation that is right for the text policies contain.
  package var terminalWidth: Int {
    guard let first = unicodeScalars.first else { return 0 }
    let properties = first.properties
    if properties.isEmojiPresentation || unicodeScalars.contains("\u{FE0F}") { return 2 }
    if properties.isIdeographic || Character.isWideOutsideIdeographs(first.value) { return 2 }
    return properties.generalCategory == .format ? 0 : 1
  }

  /// Hangul, kana, CJK punctuation and fullwidth forms: wide in every terminal, but not
  /// ideographs, so `isIdeographic` misses them.
  private static func isWideOutsideIdeographs(_ value: UInt32) -> Bool {
    switch value {
    case 0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0xA960...0xA97F, 0xAC00...0xD7A3,
      0xFE30...0xFE4F, 0xFF01...0xFF60, 0xFFE0...0xFFE6:
      true
    default: false
    }
  }
}

extension String {
  /// How many terminal cells the text takes: what tables pad by, so columns line up whatever
  /// script or emoji a name is written in.
  package var terminalWidth: Int { reduce(0) { $0 + $1.terminalWidth } }

  /// The text padded with spaces to `width` terminal cells (unchanged when wider).
  package func padded(toCells width: Int) -> String {
    self + String(repeating: " ", count: max(0, width - terminalWidth))
  }
}
