import Foundation
import ReckonEngine
import ReckonPolicy
import ReckonSupport

/// A left-aligned column of names in a text table, as wide as its longest name within limits; a
/// name cut to fit ends in "…", so two long names sharing a prefix are not taken for one.
struct TextColumn {
  /// The column's width in terminal cells.
  let width: Int

  /// A column for `names`: the longest name's width, but at least `minimum` and at most `maximum`.
  init(_ names: some Sequence<String>, minimum: Int, maximum: Int) {
    width = min(
      maximum,
      max(
        minimum, names.map { TerminalSafeText.shown($0, oneLine: true).terminalWidth }.max() ?? 0))
  }

  /// `name` padded with spaces to the width, or cut to it with a final "…", in terminal cells
  /// (a wide character takes two); a control character or line break in it written out, so it
  /// stays one line.
  func cell(_ given: String) -> String {
    let name = TerminalSafeText.shown(given, oneLine: true)
    guard name.terminalWidth > width else { return name.padded(toCells: width) }
    var cut = ""
    for character in name {
      guard cut.terminalWidth + character.terminalWidth <= width - 1 else { break }
      cut.append(character)
    }
    return cut.padded(toCells: width - 1) + "…"
  }
}
