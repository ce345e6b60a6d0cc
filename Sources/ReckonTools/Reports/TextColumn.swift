import Foundation
import ReckonEngine
import ReckonSupport

/// A left-aligned column of names in a text table, as wide as its longest name within limits; a
/// name cut to fit ends in "…", so two long names sharing a prefix are not taken for one.
struct TextColumn {
  /// The column's width in characters.
  let width: Int

  /// A column for `names`: the longest name's width, but at least `minimum` and at most `maximum`.
  init(_ names: some Sequence<String>, minimum: Int, maximum: Int) {
    width = min(
      maximum,
      max(minimum, names.map { TerminalSafeText.shown($0, oneLine: true).count }.max() ?? 0))
  }

  /// `name` padded with spaces to the width, or cut to it with a final "…"; a control
  /// character or line break in it written out, so it stays one cell.
  func cell(_ given: String) -> String {
    let name = TerminalSafeText.shown(given, oneLine: true)
    guard name.count > width else {
      return name + String(repeating: " ", count: width - name.count)
    }
    return name.prefix(width - 1) + "…"
  }
}
