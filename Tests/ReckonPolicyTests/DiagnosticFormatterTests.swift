import Foundation
import Testing

@testable import ReckonPolicy

struct DiagnosticFormatterTests {
  @Test func rendersTheContractExampleExactly() throws {
    let lines = (1...13).map { _ in "# filler" } + ["  when delivery.status != DELIVERD"]
    let source = SourceFile(
      path: "policies/targeted.policy", text: lines.joined(separator: "\n") + "\n")
    let start = try #require(source.text.range(of: "DELIVERD")).lowerBound.utf16Offset(
      in: source.text)
    let diagnostic = Diagnostic(
      .unknownEnumValue, .error, "unknown value 'DELIVERD' for delivery.status",
      at: SourceSpan(start: start, end: start + 8),
      hint: "did you mean 'DELIVERED'?")
    #expect(
      DiagnosticFormatter().render(diagnostic, in: source) == """
        policies/targeted.policy:14:27: error[P0308]: unknown value 'DELIVERD' for delivery.status
           14 |   when delivery.status != DELIVERD
              |                           ^~~~~~~~
              = did you mean 'DELIVERED'?

        """)
  }

  @Test func theCheckerProducesTheContractExample() {
    let text =
      (1...13).map { _ in "" }.joined(separator: "\n")
      + "\nrule \"r\"\n  when delivery.status != DELIVERD\n  then refund DECLINE"
    let result = TestSchema.load(text, path: "policies/targeted.policy")
    #expect(
      result.renderedDiagnostics() == """
        policies/targeted.policy:15:27: error[P0308]: unknown value 'DELIVERD' for delivery.status
           15 |   when delivery.status != DELIVERD
              |                           ^~~~~~~~
              = did you mean 'DELIVERED'?

        """)
  }

  /// The error example in docs/language.md is what `reckon check` prints for that line, column
  /// included, on line 10 of a policy (the short targeted.policy the page shows, misspelt).
  @Test func theLanguageDocsErrorExampleIsTheCheckersOutput() throws {
    let docs = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("docs/language.md")
    let blocks = try String(contentsOf: docs, encoding: .utf8).components(separatedBy: "```\n")
    let example = try #require(blocks.first { $0.hasPrefix("short.policy:10:") })
    let text =
      (1...8).map { _ in "# filler" }.joined(separator: "\n")
      + "\nrule \"r\"\n  when delivery.status != DELIVERD\n  then refund DECLINE\n"
    let result = TestSchema.load(text, path: "short.policy")
    #expect(result.renderedDiagnostics() == example)
  }

  @Test func aDiagnosticWithoutHintHasNoHintLine() {
    let source = SourceFile(path: "p", text: "abc")
    let rendered = DiagnosticFormatter().render(
      Diagnostic(.unknownName, .warning, "w", at: SourceSpan(start: 1, end: 2)), in: source)
    #expect(rendered == "p:1:2: warning[P0301]: w\n    1 | abc\n      |  ^\n")
  }

  @Test func tabsInTheLineKeepTheCaretAligned() {
    let source = SourceFile(path: "p", text: "\twhen\tx")
    let rendered = DiagnosticFormatter().render(
      Diagnostic(.unknownName, .error, "m", at: SourceSpan(start: 6, end: 7)), in: source)
    #expect(rendered.split(separator: "\n")[2] == "      | \t    \t^")
  }

  @Test func aSpanOverSeveralLinesIsUnderlinedToTheEndOfItsFirstLine() {
    let source = SourceFile(path: "p", text: "rule \"r\"\n  when x")
    let rendered = DiagnosticFormatter().render(
      Diagnostic(.unknownName, .error, "m", at: SourceSpan(start: 0, end: 15)), in: source)
    #expect(rendered.split(separator: "\n")[2] == "      | ^~~~~~~~")
  }

  @Test func anEmptySpanAtTheEndOfTheFileGetsOneCaret() {
    let source = SourceFile(path: "p", text: "let x =\n")
    let rendered = DiagnosticFormatter().render(
      Diagnostic(.expectedExpression, .error, "m", at: SourceSpan(start: 8, end: 8)), in: source)
    #expect(rendered == "p:2:1: error[P0209]: m\n    2 | \n      | ^\n")
  }

  @Test func theGutterWidensForLongFiles() {
    let text = String(repeating: "\n", count: 123_456) + "x"
    let source = SourceFile(path: "p", text: text)
    let rendered = DiagnosticFormatter().render(
      Diagnostic(.unknownName, .error, "m", at: SourceSpan(start: 123_456, end: 123_457)),
      in: source)
    #expect(rendered == "p:123457:1: error[P0301]: m\n 123457 | x\n        | ^\n")
  }

  @Test func multibyteCharactersCountAsOneColumnWhileTheCaretIsPaddedByTerminalCells() {
    let source = SourceFile(path: "p", text: "é ☕️ x")
    let offset = Array("é ☕️ ".utf8).count
    let rendered = DiagnosticFormatter().render(
      Diagnostic(.unknownName, .error, "m", at: SourceSpan(start: offset, end: offset + 1)),
      in: source)
    // Column 5 counts characters; the emoji takes two cells, so the caret needs five spaces.
    #expect(rendered == "p:1:5: error[P0301]: m\n    1 | é ☕️ x\n      |      ^\n")
  }

  struct WideCase: CustomTestStringConvertible, Sendable {
    let before: String
    let marked: String
    let caretLine: String
    var testDescription: String { before + marked }
  }

  static let wideCases: [WideCase] = [
    WideCase(before: "\"日本\" ", marked: "x", caretLine: "       ^"),
    WideCase(before: "\"한국\" ", marked: "x", caretLine: "       ^"),
    WideCase(before: "\"カナ\" ", marked: "x", caretLine: "       ^"),
    WideCase(before: "\"ＡＢ\" ", marked: "x", caretLine: "       ^"),
    WideCase(before: "\"🙂\" ", marked: "x", caretLine: "     ^"),
    // A zero-width space is shown as a space in the excerpt (it would hide), so it takes a cell.
    WideCase(before: "\"é\u{200B}\" ", marked: "x", caretLine: "     ^"),
    WideCase(before: "a ", marked: "\"日本\"", caretLine: "  ^~~~~~"),
  ]

  @Test("the caret sits under its character after wide ones", arguments: wideCases)
  func caretIsPaddedByTerminalCells(_ testCase: WideCase) {
    let source = SourceFile(path: "p", text: testCase.before + testCase.marked + " y")
    let start = Array(testCase.before.utf8).count
    let rendered = DiagnosticFormatter().render(
      Diagnostic(
        .unknownName, .error, "m",
        at: SourceSpan(start: start, end: start + Array(testCase.marked.utf8).count)), in: source)
    #expect(rendered.split(separator: "\n")[2] == "      | " + testCase.caretLine)
    #expect(rendered.hasPrefix("p:1:\(testCase.before.count + 1):"))
  }

  @Test func severalDiagnosticsAreRenderedInSourceOrderSeparatedByBlankLines() {
    let source = SourceFile(path: "p", text: "a b")
    let rendered = DiagnosticFormatter().render(
      [
        Diagnostic(.unknownName, .error, "second", at: SourceSpan(start: 2, end: 3)),
        Diagnostic(.unknownName, .error, "first", at: SourceSpan(start: 0, end: 1)),
      ], in: source)
    #expect(
      rendered
        == "p:1:1: error[P0301]: first\n    1 | a b\n      | ^\n\np:1:3: error[P0301]: second\n    1 | a b\n      |   ^\n"
    )
  }
}

/// A file that is one huge line (minified JSON, a generated policy) is quoted around the span
/// only, so one diagnostic never carries the whole file into a log.
struct LongLineExcerptTests {
  @Test func aLongLineIsShownAroundTheSpanWithTheCaretUnderIt() throws {
    let text =
      String(repeating: "a ", count: 50_000) + "DELIVERD " + String(repeating: "b ", count: 50_000)
    let source = SourceFile(path: "long.policy", text: text)
    let start = try #require(text.range(of: "DELIVERD")).lowerBound.utf16Offset(in: text)
    let excerpt = DiagnosticFormatter().excerpt(
      at: SourceSpan(start: start, end: start + 8), in: source)
    let lines = excerpt.split(separator: "\n", omittingEmptySubsequences: false)
    #expect(excerpt.count < 2 * DiagnosticFormatter.longestLineShown + 40)
    #expect(lines.count == 2)
    let shown = try #require(lines.first)
    let caret = try #require(lines.last)
    let column = try #require(caret.firstIndex(of: "^"))
    let offset = caret.distance(from: caret.startIndex, to: column)
    #expect(shown.dropFirst(offset).hasPrefix("DELIVERD"))
    #expect(caret.hasSuffix(" ^" + String(repeating: "~", count: 7)))
    #expect(shown.hasSuffix("…") && shown.contains("| …"))
  }

  @Test func aShortLineIsShownWhole() {
    let source = SourceFile(path: "p.policy", text: "otherwise refund DECLIN\n")
    #expect(
      DiagnosticFormatter().excerpt(at: SourceSpan(start: 17, end: 23), in: source) == """
            1 | otherwise refund DECLIN
              |                  ^~~~~~
        """)
  }
}
