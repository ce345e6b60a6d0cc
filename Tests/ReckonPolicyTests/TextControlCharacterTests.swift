import Testing

@testable import ReckonPolicy

/// Text may not hold control characters: they are invisible in an editor, and a terminal showing
/// a message or a decision with one would act on it (ESC starts a colour or cursor command).
struct TextControlCharacterTests {
  struct Case: CustomTestStringConvertible, Sendable {
    let name: String
    let character: String
    let message: String
    var testDescription: String { name }
  }

  static let cases: [Case] = [
    Case(
      name: "escape", character: "\u{1B}",
      message: "U+001B escape cannot be written inside text"),
    Case(name: "bell", character: "\u{07}", message: "U+0007 bell cannot be written inside text"),
    Case(name: "null", character: "\u{00}", message: "U+0000 null cannot be written inside text"),
    Case(
      name: "unit separator", character: "\u{1F}",
      message: "U+001F control character cannot be written inside text"),
    Case(
      name: "delete", character: "\u{7F}", message: "U+007F delete cannot be written inside text"),
    Case(
      name: "a C1 control (CSI)", character: "\u{9B}",
      message: "U+009B control character cannot be written inside text"),
    Case(name: "tab", character: "\t", message: "a tab cannot be written inside text"),
    // Invisible characters that reorder or split text ("Trojan Source"): two names that look
    // alike would differ, or text would show other than it reads.
    Case(
      name: "right-to-left override", character: "\u{202E}",
      message: "U+202E right-to-left override cannot be written inside text"),
    Case(
      name: "first strong isolate", character: "\u{2068}",
      message: "U+2068 first strong isolate cannot be written inside text"),
    Case(
      name: "zero width space", character: "\u{200B}",
      message: "U+200B zero width space cannot be written inside text"),
    Case(
      name: "right-to-left mark", character: "\u{200F}",
      message: "U+200F right-to-left mark cannot be written inside text"),
    Case(
      name: "arabic letter mark", character: "\u{061C}",
      message: "U+061C arabic letter mark cannot be written inside text"),
    Case(
      name: "word joiner", character: "\u{2060}",
      message: "U+2060 word joiner cannot be written inside text"),
    Case(
      name: "soft hyphen", character: "\u{00AD}",
      message: "U+00AD soft hyphen cannot be written inside text"),
    Case(
      name: "hangul filler", character: "\u{3164}",
      message: "U+3164 hangul filler cannot be written inside text"),
    Case(
      name: "function application", character: "\u{2061}",
      message: "U+2061 function application cannot be written inside text"),
    Case(
      name: "mongolian vowel separator", character: "\u{180E}",
      message: "U+180E mongolian vowel separator cannot be written inside text"),
    // Tag characters spell a flag after 🏴; anywhere else they are invisible text.
    Case(
      name: "tag outside a flag", character: "\u{E0061}",
      message: "U+E0061 tag latin small letter a cannot be written inside text"),
  ]

  @Test(arguments: cases)
  func aControlCharacterInsideTextIsAnErrorAtItsPosition(_ example: Case) throws {
    let text = "rule \"r\" when product.id == \"ab\(example.character)c\" then refund DECLINE\n"
    let (_, _, diagnostics) = Lexer.tokenize(SourceFile(path: "t.policy", text: text))
    let error = try #require(diagnostics.first)
    #expect(diagnostics.count == 1, "\(diagnostics)")
    #expect(error.id == .characterInText)
    #expect(error.message == example.message)
    let column = SourceFile(path: "t.policy", text: text).location(of: error.span.start).column
    #expect(column == 32)
    #expect(error.hint != nil)
  }

  @Test func aControlCharacterInARuleNameIsReportedWithFileLineAndCaret() {
    let result = TestSchema.load(
      "rule \"a\u{1B}[31mred\"\n  when reason == LEGAL\n  then refund DECLINE\n", path: "c.policy")
    #expect(
      result.renderedDiagnostics().hasPrefix(
        "c.policy:1:8: error[P0104]: U+001B escape cannot be written inside text\n"),
      "\(result.renderedDiagnostics())")
    #expect(result.policy == nil)
  }

  /// The excerpt under an error shows an override as a space: printed, it would reorder the
  /// line and the caret would point elsewhere.
  @Test func anOverrideInTheExcerptIsShownAsASpaceAndTheCaretStillPointsAtIt() {
    let result = TestSchema.load(
      "rule \"a\u{202E}b\"\n  when reason == LEGAL\n  then refund DECLINE\n", path: "o.policy")
    let rendered = result.renderedDiagnostics()
    #expect(!rendered.unicodeScalars.contains("\u{202E}"), "\(rendered)")
    #expect(rendered.contains("    1 | rule \"a b\"\n      |        ^"), "\(rendered)")
  }

  /// Tags spell a flag only as the black flag, tag letters and a cancel tag: unended, or after
  /// the cancel, they are invisible text that makes two names that look alike differ.
  @Test(arguments: [
    "🏴\u{E0061}\u{E0062}", "🏴\u{E0067}\u{E0062}\u{E007F}\u{E0078}", "🏴\u{E007F}",
  ])
  func tagsThatDoNotSpellAWholeFlagAreRefused(_ inside: String) {
    let (_, _, diagnostics) = Lexer.tokenize(SourceFile(path: "t.policy", text: "\"\(inside)\""))
    #expect(!diagnostics.isEmpty)
    #expect(diagnostics.allSatisfy { $0.message.contains("cannot be written inside text") })
  }

  /// A diagnostic's excerpt shows a flag as a flag (one character, as its column counts it).
  @Test func anExcerptKeepsAFlag() {
    let flag = "🏴\u{E0067}\u{E0062}\u{E0065}\u{E006E}\u{E0067}\u{E007F}"
    #expect(DiagnosticFormatter.printable(flag + " \u{1B}") == flag + "  ")
    #expect(DiagnosticFormatter.printable("vip\u{E0061}") == "vip ")
  }

  @Test func theTabHintSaysToWriteBackslashT() throws {
    let (_, _, diagnostics) = Lexer.tokenize(SourceFile(path: "t.policy", text: "\"a\tb\""))
    #expect(diagnostics.first?.hint == "write \\t for a tab, or a space")
  }

  // The zero-width joiners stay: scripts (Persian, Indic) and emoji sequences need them.
  @Test(arguments: [
    "a\\tb", "a\\nb", "é日🙂", "a b", "می\u{200C}خواهم", "👩\u{200D}💻",
    "🏴\u{E0067}\u{E0062}\u{E0073}\u{E0063}\u{E0074}\u{E007F}",
  ])
  func escapesAndPrintableCharactersStayAllowed(_ inside: String) {
    let (_, _, diagnostics) = Lexer.tokenize(SourceFile(path: "t.policy", text: "\"\(inside)\""))
    #expect(diagnostics.isEmpty, "\(diagnostics)")
  }
}
