/// Characters that change how text shows without showing themselves: the bidirectional
/// controls, zero-width spaces, soft hyphens, fillers. Two names that look alike differ by one;
/// text shows other than it reads ("Trojan Source"). Policy text may not hold them, and output
/// shows them escaped.
public enum InvisibleCharacter {
  /// Whether `scalar` is one of them. The zero-width joiner and non-joiner are not (Persian and
  /// Indic scripts and emoji sequences need them), nor the tag characters of flag emoji.
  public static func misleads(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0x200C, 0x200D, 0xE0020...0xE007F: return false
    case 0x034F, 0x115F, 0x1160, 0x17B4, 0x17B5, 0x3164, 0xFFA0: return true
    default: return scalar.properties.generalCategory == .format
    }
  }
}
