/// Text for a terminal from values anyone could have written (a reason or product type in a
/// requests file, a rule name in a state database, a fact's value): control characters other
/// than the line breaks the report itself writes, and characters that change how text shows
/// without showing themselves (`InvisibleCharacter`), are shown as `\u{1B}`, so a value cannot
/// retitle the terminal, colour it, forge a line of the report, or read other than it is.
public enum TerminalSafeText {
  /// `text` with each control character (C0 other than a line feed, DEL, C1) written out; a
  /// line feed too when `oneLine`, for a value shown within a line.
  public static func shown(_ text: String, oneLine: Bool = false) -> String {
    let control = { (scalar: Unicode.Scalar) in isControl(scalar) || (oneLine && scalar == "\n") }
    guard text.unicodeScalars.contains(where: control) else { return text }
    let scalars = Array(text.unicodeScalars)
    // A flag's tag characters show the flag; only stray ones are written out.
    let flags = InvisibleCharacter.flagTags(in: scalars)
    var shown = ""
    for (index, scalar) in scalars.enumerated() {
      if control(scalar), !flags.contains(index) {
        shown += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
      } else {
        shown.unicodeScalars.append(scalar)
      }
    }
    return shown
  }

  private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
    (scalar.value < 0x20 && scalar != "\n") || (0x7F...0x9F).contains(scalar.value)
      || InvisibleCharacter.misleads(scalar)
  }
}
