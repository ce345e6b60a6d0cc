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
  ]

  @Test(arguments: cases)
  func aControlCharacterInsideTextIsAnErrorAtItsPosition(_ example: Case) throws {
    let text = "rule \"r\" when product.id == \"ab\(example.character)c\" then refund DECLINE\n"
    let (_, _, diagnostics) = Lexer.tokenize(SourceFile(path: "t.policy", text: text))
    let error = try #require(diagnostics.first)
    #expect(diagnostics.count == 1, "\(diagnostics)")
    #expect(error.id == .unexpectedCharacter)
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
        "c.policy:1:8: error: U+001B escape cannot be written inside text\n"),
      "\(result.renderedDiagnostics())")
    #expect(result.policy == nil)
  }

  @Test func theTabHintSaysToWriteBackslashT() throws {
    let (_, _, diagnostics) = Lexer.tokenize(SourceFile(path: "t.policy", text: "\"a\tb\""))
    #expect(diagnostics.first?.hint == "write \\t for a tab, or a space")
  }

  @Test(arguments: ["a\\tb", "a\\nb", "é日🙂", "a b"])
  func escapesAndPrintableCharactersStayAllowed(_ inside: String) {
    let (_, _, diagnostics) = Lexer.tokenize(SourceFile(path: "t.policy", text: "\"\(inside)\""))
    #expect(diagnostics.isEmpty, "\(diagnostics)")
  }
}
