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
}
