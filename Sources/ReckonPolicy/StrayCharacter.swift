import ReckonSupport

/// A character the language does not use, named so the author can find it even when it is
/// invisible or looks like one the language does use.
struct StrayCharacter {
  let character: String

  /// How the message shows it: printable ASCII in quotes; anything else by code point and name,
  /// with the character itself only when it can be seen.
  var described: String {
    guard let scalar = character.unicodeScalars.first else { return "''" }
    if scalar.value >= 0x21, scalar.value < 0x7F { return "'\(character)'" }
    let name = "U+\(StrayCharacter.hex(scalar.value)) \(StrayCharacter.name(of: scalar))"
    return StrayCharacter.isVisible(scalar) ? "'\(character)' (\(name))" : name
  }

  /// What to write instead, for the characters people type by mistake or paste from documents.
  var hint: String? {
    guard let scalar = character.unicodeScalars.first else { return nil }
    switch scalar {
    case "!": return "write 'not' for negation, or '!=' for 'is not equal to'"
    case "&": return "write 'and' to combine conditions"
    case "|": return "write 'or' for either condition"
    case "'", "\u{201C}", "\u{201D}", "\u{2018}", "\u{2019}", "\u{201E}", "\u{00AB}", "\u{00BB}":
      return "write text between straight double quotes, like \"com.example.coins\""
    case "\u{2265}": return "write >= for 'at least'"
    case "\u{2264}": return "write <= for 'at most'"
    case "\u{2260}": return "write != for 'is not equal to'"
    case "\u{2010}"..."\u{2015}", "\u{2212}": return "write a plain minus sign, -"
    case "\u{FEFF}": return "delete it: a byte order mark belongs only at the very start of a file"
    default: break
    }
    switch scalar.properties.generalCategory {
    case .spaceSeparator: return "replace it with an ordinary space"
    case .format, .control, .lineSeparator, .paragraphSeparator:
      return "delete it: it is invisible in most editors"
    default: return nil
    }
  }

  /// The operator a look-alike resembles, which the lexer puts in its place after reporting it.
  var standIn: Token.Kind? {
    guard let scalar = character.unicodeScalars.first else { return nil }
    return switch scalar {
    case "\u{2265}": .greaterOrEqual
    case "\u{2264}": .lessOrEqual
    case "\u{2260}": .notEqual
    case "\u{2010}"..."\u{2015}", "\u{2212}": .minus
    default: nil
    }
  }

  private static func name(of scalar: Unicode.Scalar) -> String {
    switch scalar.value {
    case 0x00: return "null"
    case 0x07: return "bell"
    case 0x08: return "backspace"
    case 0x1B: return "escape"
    case 0x0B: return "vertical tab"
    case 0x0C: return "form feed"
    case 0x7F: return "delete"
    case 0xFEFF: return "byte order mark"
    default:
      return (scalar.properties.name ?? scalar.properties.nameAlias)?.lowercased()
        ?? "control character"
    }
  }

  private static func isVisible(_ scalar: Unicode.Scalar) -> Bool {
    if InvisibleCharacter.misleads(scalar) { return false }
    switch scalar.properties.generalCategory {
    case .control, .format, .spaceSeparator, .lineSeparator, .paragraphSeparator,
      .nonspacingMark, .enclosingMark, .privateUse, .unassigned, .surrogate:
      return false
    default: return true
    }
  }

  private static func hex(_ value: UInt32) -> String {
    let digits = String(value, radix: 16, uppercase: true)
    return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
  }
}
