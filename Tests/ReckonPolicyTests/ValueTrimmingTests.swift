import Foundation
import Testing

@testable import ReckonPolicy

/// Values in facts files are read with the spaces around them dropped, exactly as Foundation's
/// `trimmingCharacters(in: .whitespaces)` drops them (tab and every space separator, never a
/// line break), without its detour through NSString.
struct ValueTrimmingTests {
  @Test(arguments: [
    "37.5%", "  37.5% ", "\tDELIVERED\t", "\u{00A0}5 USD\u{3000}", "", "   ", "a b",
    "\n5\n", " \u{2003}400 days\u{202F} ", "é ", " 🙂",
  ])
  func dropsWhatFoundationDrops(text: String) {
    #expect(ValueParser.trimmedOfSpaces(text) == text.trimmingCharacters(in: .whitespaces))
  }

  @Test func aValueWithSpacesAroundItReadsAsWithout() throws {
    #expect(try ValueParser.parse(" 37.5%\t", as: .percent) == .percent(37.5))
  }
}
