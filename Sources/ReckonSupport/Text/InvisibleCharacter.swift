/// Characters that change how text shows without showing themselves: the bidirectional
/// controls, zero-width spaces, soft hyphens, fillers. Two names that look alike differ by one;
/// text shows other than it reads ("Trojan Source"). Policy text may not hold them, and output
/// shows them escaped.
public enum InvisibleCharacter {
  /// Whether `scalar` is one of them. The zero-width joiner and non-joiner are not (Persian and
  /// Indic scripts and emoji sequences need them). The tag characters are, except within a flag
  /// (`isTag`, which the lexer allows after a black flag).
  public static func misleads(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0x200C, 0x200D: return false
    case 0x034F, 0x115F, 0x1160, 0x17B4, 0x17B5, 0x3164, 0xFFA0: return true
    default: return scalar.properties.generalCategory == .format
    }
  }

  /// Whether `scalar` is a tag character, which spells a subdivision flag after U+1F3F4.
  public static func isTag(_ scalar: Unicode.Scalar) -> Bool {
    (0xE0020...0xE007F).contains(scalar.value)
  }

  /// The positions in `scalars` of the tag characters of well-formed flags: the black flag
  /// U+1F3F4, 1 to 32 tag letters or digits, the cancel tag U+E007F. Anywhere else a tag
  /// character is invisible text.
  public static func flagTags(in scalars: [Unicode.Scalar]) -> Set<Int> {
    Set(
      scalars.indices.filter { index in
        isTag(scalars[index])
          && isFlagTag { scalars.indices.contains(index + $0) ? scalars[index + $0].value : nil }
      })
  }

  /// Whether a tag character belongs to a well-formed flag; `scalar(k)` is the scalar `k`
  /// places after it (before it for a negative `k`), nil past the text. The one rule for the
  /// lexer, which reads bytes, and for output, which reads scalars.
  public static func isFlagTag(_ scalar: (Int) -> UInt32?) -> Bool {
    var first = 0
    while let previous = scalar(first - 1), isTagLetterOrDigit(previous) { first -= 1 }
    guard scalar(first - 1) == blackFlag else { return false }
    var end = first
    while let next = scalar(end), isTagLetterOrDigit(next) { end += 1 }
    return (1...32).contains(end - first) && scalar(end) == cancelTag && end >= 0
  }

  /// U+1F3F4 WAVING BLACK FLAG, which tag characters follow to name a region's flag.
  static let blackFlag: UInt32 = 0x1F3F4
  /// U+E007F CANCEL TAG, which ends a flag's tags.
  static let cancelTag: UInt32 = 0xE007F

  static func isTagLetterOrDigit(_ value: UInt32) -> Bool {
    (0xE0030...0xE0039).contains(value) || (0xE0061...0xE007A).contains(value)
  }
}
