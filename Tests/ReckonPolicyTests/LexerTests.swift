import Testing

@testable import ReckonPolicy

struct LexerTests {
  struct TokenCase: CustomTestStringConvertible, Sendable {
    let source: String
    let kinds: [Token.Kind]
    let texts: [String]
    var testDescription: String { source }
  }

  static let tokenCases: [TokenCase] = [
    TokenCase(source: "usage.consumed", kinds: [.identifier], texts: ["usage.consumed"]),
    TokenCase(
      source: "customer.refunds_last_90_days", kinds: [.identifier],
      texts: ["customer.refunds_last_90_days"]),
    TokenCase(source: "a.b.c _x", kinds: [.identifier, .identifier], texts: ["a.b.c", "_x"]),
    TokenCase(
      source: "1_000 2.5 0.25", kinds: [.number, .number, .number], texts: ["1000", "2.5", "0.25"]),
    TokenCase(source: "1_000.500_5", kinds: [.number], texts: ["1000.5005"]),
    TokenCase(source: "40%", kinds: [.number, .percentSign], texts: ["40", "%"]),
    TokenCase(source: #""a\"b\\c\nd\te""#, kinds: [.string], texts: ["a\"b\\c\nd\te"]),
    TokenCase(
      source: "== != < <= > >= = + - * / , ( ) [ ] :",
      kinds: [
        .equal, .notEqual, .less, .lessOrEqual, .greater, .greaterOrEqual, .assign, .plus, .minus,
        .star, .slash,
        .comma, .leftParen, .rightParen, .leftBracket, .rightBracket, .colon,
      ],
      texts: [
        "==", "!=", "<", "<=", ">", ">=", "=", "+", "-", "*", "/", ",", "(", ")", "[", "]", ":",
      ]),
    TokenCase(
      source: "a<=b", kinds: [.identifier, .lessOrEqual, .identifier], texts: ["a", "<=", "b"]),
    TokenCase(source: "usage.consumed.", kinds: [.identifier], texts: ["usage.consumed"]),
  ]

  @Test("tokens have the kind and text the grammar expects", arguments: tokenCases)
  func tokenKindsAndTexts(_ testCase: TokenCase) {
    let lexed = Lexer.tokenize(TestSchema.source(testCase.source))
    let tokens = lexed.tokens.dropLast()
    #expect(tokens.map(\.kind) == testCase.kinds)
    #expect(tokens.map(\.text) == testCase.texts)
    #expect(lexed.tokens.last?.kind == .endOfFile)
  }

  @Test func tokenSpansCoverTheirSourceText() {
    let source = TestSchema.source("when usage.consumed >= 80%")
    let tokens = Lexer.tokenize(source).tokens
    #expect(
      tokens.map { source.text(of: $0.span) } == ["when", "usage.consumed", ">=", "80", "%", ""])
  }

  @Test func stringSpanIncludesTheQuotesWhileTextIsDecoded() throws {
    let source = TestSchema.source(#"x "a\nb""#)
    let token = try #require(Lexer.tokenize(source).tokens.dropFirst().first)
    #expect(token.kind == .string)
    #expect(token.text == "a\nb")
    #expect(source.text(of: token.span) == #""a\nb""#)
  }

  @Test func unterminatedStringStopsAtTheLineEndAndLexingContinues() throws {
    let source = TestSchema.source("policy \"oops\nrule \"r\"")
    let lexed = Lexer.tokenize(source)
    let diagnostic = try #require(lexed.diagnostics.first)
    #expect(lexed.diagnostics.count == 1)
    #expect(diagnostic.id == .unterminatedString)
    #expect(source.text(of: diagnostic.span) == "\"oops")
    #expect(diagnostic.hint != nil)
    #expect(lexed.tokens.map(\.text) == ["policy", "oops", "rule", "r", ""])
    #expect(lexed.tokens[2].startsLine)
  }

  @Test func backslashBeforeALineBreakDoesNotContinueTheString() {
    let lexed = Lexer.tokenize(TestSchema.source("\"abc\\\nrule"))
    #expect(lexed.diagnostics.map(\.id) == [.unterminatedString])
    #expect(lexed.tokens.map(\.text) == ["abc\\", "rule", ""])
    #expect(lexed.tokens[1].startsLine)
  }

  @Test func commentsAreKeptWithWhetherTheyStandOnTheirOwnLine() {
    let source = TestSchema.source("# head\nlet a = 1 # trailing\n  # indented\n")
    let lexed = Lexer.tokenize(source)
    #expect(lexed.comments.map(\.text) == [" head", " trailing", " indented"])
    #expect(lexed.comments.map(\.ownLine) == [true, false, true])
    #expect(
      lexed.comments.map { source.text(of: $0.span) } == ["# head", "# trailing", "# indented"])
    #expect(lexed.tokens.map(\.text) == ["let", "a", "=", "1", ""])
  }

  @Test func startsLineMarksTheFirstTokenOfEachLine() {
    let lexed = Lexer.tokenize(TestSchema.source("rule \"a\"\n  when x"))
    #expect(lexed.tokens.map(\.startsLine) == [true, false, true, false, true])
  }

  struct UnexpectedCase: CustomTestStringConvertible, Sendable {
    let character: String
    let named: String
    let hintContains: String?
    /// The operator a look-alike stands in for, so the rest of the line still parses.
    var standsInFor: Token.Kind? = nil
    var testDescription: String { named }
  }

  static let unexpectedCases: [UnexpectedCase] = [
    UnexpectedCase(character: "!", named: "'!'", hintContains: "'not'"),
    UnexpectedCase(character: "&", named: "'&'", hintContains: "'and'"),
    UnexpectedCase(character: "|", named: "'|'", hintContains: "'or'"),
    UnexpectedCase(character: "'", named: "'''", hintContains: "double quotes"),
    UnexpectedCase(
      character: "“", named: "'“' (U+201C left double quotation mark)",
      hintContains: "straight double quotes"),
    UnexpectedCase(
      character: "”", named: "'”' (U+201D right double quotation mark)",
      hintContains: "straight double quotes"),
    UnexpectedCase(
      character: "‘", named: "'‘' (U+2018 left single quotation mark)",
      hintContains: "straight double quotes"),
    UnexpectedCase(
      character: "’", named: "'’' (U+2019 right single quotation mark)",
      hintContains: "straight double quotes"),
    UnexpectedCase(character: "@", named: "'@'", hintContains: nil),
    // A letter outside ASCII, such as é, is read as part of a name, with the name's own error.
    UnexpectedCase(character: "§", named: "'§' (U+00A7 section sign)", hintContains: nil),
    UnexpectedCase(
      character: "\u{00A0}", named: "U+00A0 no-break space", hintContains: "ordinary space"),
    UnexpectedCase(character: "\u{0000}", named: "U+0000 null", hintContains: "delete it"),
    UnexpectedCase(
      character: "\u{200B}", named: "U+200B zero width space", hintContains: "delete it"),
    UnexpectedCase(
      character: "\u{FEFF}", named: "U+FEFF byte order mark", hintContains: "start of a file"),
    UnexpectedCase(
      character: "≥", named: "'≥' (U+2265 greater-than or equal to)", hintContains: ">=",
      standsInFor: .greaterOrEqual),
    UnexpectedCase(
      character: "≤", named: "'≤' (U+2264 less-than or equal to)", hintContains: "<=",
      standsInFor: .lessOrEqual),
    UnexpectedCase(
      character: "≠", named: "'≠' (U+2260 not equal to)", hintContains: "!=",
      standsInFor: .notEqual),
    UnexpectedCase(
      character: "–", named: "'–' (U+2013 en dash)", hintContains: "-", standsInFor: .minus),
    UnexpectedCase(
      character: "—", named: "'—' (U+2014 em dash)", hintContains: "-", standsInFor: .minus),
  ]

  @Test(
    "an unexpected character is named, invisible ones by code point, with a hint where one helps",
    arguments: unexpectedCases)
  func unexpectedCharacter(_ testCase: UnexpectedCase) throws {
    let source = TestSchema.source("a \(testCase.character) b")
    let lexed = Lexer.tokenize(source)
    let diagnostic = try #require(lexed.diagnostics.first)
    #expect(lexed.diagnostics.count == 1)
    #expect(diagnostic.id == .unexpectedCharacter)
    #expect(diagnostic.message == "unexpected character \(testCase.named)")
    #expect(source.text(of: diagnostic.span) == testCase.character)
    if let expected = testCase.hintContains {
      #expect(diagnostic.hint?.contains(expected) == true)
    } else {
      #expect(diagnostic.hint == nil)
    }
    if let standIn = testCase.standsInFor {
      #expect(lexed.tokens.map(\.kind) == [.identifier, standIn, .identifier, .endOfFile])
    } else {
      #expect(lexed.tokens.map(\.text) == ["a", "b", ""])
    }
  }

  @Test(
    "text between typographic or single quotes is one error naming the fix, and lexes as text",
    arguments: [
      ("“heavy use”", "heavy use"), ("„heavy use“", "heavy use"), ("”heavy use”", "heavy use"),
      ("“heavy use\"", "heavy use"), ("'heavy use'", "heavy use"), ("‘heavy use’", "heavy use"),
      ("‘customer“s’", "customer“s"),
    ])
  func curlyQuotedTextIsOneError(quoted: String, text: String) throws {
    let source = TestSchema.source("rule \(quoted) x")
    let lexed = Lexer.tokenize(source)
    let diagnostic = try #require(lexed.diagnostics.first)
    #expect(lexed.diagnostics.count == 1)
    #expect(diagnostic.message == "text must be between straight double quotes")
    #expect(diagnostic.hint?.hasPrefix("write \"\(text)\"") == true)
    #expect(source.text(of: diagnostic.span) == quoted)
    #expect(lexed.tokens.map(\.kind) == [.identifier, .string, .identifier, .endOfFile])
    #expect(lexed.tokens[1].text == text)
  }

  @Test func aRuleNamedInCurlyQuotesIsOneErrorAndTheRuleStillChecks() {
    let result = TestSchema.load(
      "rule “heavy use”\n  when usage.consumed >= 80% and reason == LEGAL\n  then refund DECLINE")
    #expect(result.diagnostics.map(\.id) == [.curlyQuotes])
  }

  @Test func aLookAlikeOperatorIsOneErrorAndTheConditionStillChecks() {
    let result = TestSchema.load(
      "rule \"r\"\n  when usage.consumed ≥ 80% and reason == LEGAL\n  then refund DECLINE")
    #expect(result.diagnostics.map(\.id) == [.unexpectedCharacter])
  }

  @Test func tokenAfterAStrayCharacterAtLineStartStillStartsTheLine() {
    let lexed = Lexer.tokenize(TestSchema.source("let a = 1\n@rule \"r\""))
    let rule = lexed.tokens.first { $0.text == "rule" }
    #expect(rule?.startsLine == true)
  }

  @Test func aLongRunOfStrayCharactersIsOneDiagnosticEachWithoutExhaustingTheStack() {
    let lexed = Lexer.tokenize(TestSchema.source(String(repeating: "@", count: 200_000)))
    #expect(lexed.diagnostics.count == 200_000)
    #expect(lexed.tokens.map(\.kind) == [.endOfFile])
  }

  /// A number run into letters, or with an underscore out of place, is one invalid number,
  /// whole, with the hint that fits it.
  @Test(arguments: [
    ("12abc", "90 days"), ("1.2.3", "90 days"), ("3days", "90 days"),
    ("1_000_", "between two digits"), ("1__0", "between two digits"),
    ("1_.5", "between two digits"), ("1._5", "between two digits"),
    ("1.5_", "between two digits"), ("2.0__1", "between two digits"),
  ])
  func aMalformedNumberIsOneInvalidNumber(_ text: String, _ hint: String) throws {
    let source = TestSchema.source("x \(text) y")
    let lexed = Lexer.tokenize(source)
    let diagnostic = try #require(lexed.diagnostics.first)
    #expect(lexed.diagnostics.count == 1)
    #expect(diagnostic.id == .invalidNumber)
    #expect(source.text(of: diagnostic.span) == text)
    #expect(diagnostic.hint?.contains(hint) == true, "\(String(describing: diagnostic.hint))")
    #expect(lexed.tokens.map(\.kind) == [.identifier, .number, .identifier, .endOfFile])
  }

  @Test(arguments: [("1_000", "1000"), ("1_000.000_5", "1000.0005"), ("2_5", "25")])
  func anUnderscoreBetweenDigitsIsKept(_ text: String, _ number: String) {
    let lexed = Lexer.tokenize(TestSchema.source(text))
    #expect(lexed.diagnostics.isEmpty)
    #expect(lexed.tokens.first?.text == number)
  }

  /// Digits before `-MM-DD` other than a four-digit year are arithmetic, as they always were.
  @Test(arguments: ["10000-10-10", "1_000-10-10"])
  func digitsThatAreNoYearBeforeAMonthAndDayAreArithmetic(_ text: String) {
    let lexed = Lexer.tokenize(TestSchema.source(text))
    #expect(lexed.diagnostics.isEmpty)
    #expect(lexed.tokens.first?.kind == .number)
  }

  @Test func columnsCountCharactersNotBytes() throws {
    let source = TestSchema.source("policy \"café ☕️\"\n  when é @")
    let lexed = Lexer.tokenize(source)
    let at = try #require(lexed.diagnostics.last)
    #expect(source.location(of: at.span.start) == SourceLocation(line: 2, column: 10))
    let stray = try #require(lexed.diagnostics.first)
    #expect(source.location(of: stray.span.start) == SourceLocation(line: 2, column: 8))
    let string = lexed.tokens[1]
    #expect(source.location(of: string.span.end) == SourceLocation(line: 1, column: 16))
  }

  @Test func crlfLineEndsAreWhitespaceAndLineTextDropsTheReturn() {
    let source = TestSchema.source("let a = 1\r\nlet b = 2\r\n")
    let lexed = Lexer.tokenize(source)
    #expect(lexed.diagnostics.isEmpty)
    #expect(lexed.tokens.count == 9)
    #expect(source.lineText(1) == "let a = 1")
    #expect(source.location(of: lexed.tokens[4].span.start) == SourceLocation(line: 2, column: 1))
  }

  /// A viewer breaks the line at these, Reckon does not: the rule after one in a comment would
  /// be shown to a reviewer but never run, so the file is refused, once, at the first of them.
  @Test(arguments: [
    ("\r", "a carriage return (CR) without a line feed"), ("\u{0B}", "a vertical tab (VT)"),
    ("\u{0C}", "a form feed (FF)"), ("\u{85}", "U+0085 NEXT LINE"),
    ("\u{2028}", "U+2028 LINE SEPARATOR"), ("\u{2029}", "U+2029 PARAGRAPH SEPARATOR"),
  ])
  func aLineBreakReckonDoesNotReadInACommentIsAnError(lineBreak: String, name: String) throws {
    let text =
      "rule \"x\" when reason == LEGAL then refund DECLINE # note\(lineBreak)"
      + "rule \"y\" when true then refund GRANT_FULL # again\(lineBreak)\n"
    let source = TestSchema.source(text)
    let lexed = Lexer.tokenize(source)
    let diagnostic = try #require(lexed.diagnostics.first)
    #expect(lexed.diagnostics.count == 1)
    #expect(diagnostic.id == .unsupportedLineBreak)
    #expect(
      diagnostic.message == "\(name) here: some editors break the line at it, Reckon does not")
    #expect(source.location(of: diagnostic.span.start) == SourceLocation(line: 1, column: 57))
  }

  /// `&&` was two errors, then a parse error at what followed: one error now, and the
  /// operator meant in its place so the condition still parses.
  @Test(arguments: [
    ("usage.consumed > 5% && reason == LEGAL", "&&", "and"),
    ("usage.consumed > 5% || reason == LEGAL", "||", "or"),
    ("usage.consumed <> 5%", "<>", "!="), ("usage.consumed => 5%", "=>", ">="),
    ("usage.consumed =< 5%", "=<", "<="),
  ])
  func anOperatorFromAnotherLanguageIsOneErrorAndReadAsMeant(
    condition: String, written: String, meant: String
  ) throws {
    let text = "rule \"r\" when \(condition) then refund DECLINE"
    let result = TestSchema.load(text)
    let diagnostic = try #require(result.diagnostics.first)
    #expect(result.diagnostics.count == 1, "\(result.diagnostics)")
    #expect(diagnostic.message == "'\(written)' is not an operator here")
    #expect(diagnostic.hint == "write '\(meant)'")
    let column = text.distance(from: text.startIndex, to: text.range(of: written)!.lowerBound) + 1
    #expect(
      TestSchema.source(text).location(of: diagnostic.span.start)
        == SourceLocation(line: 1, column: column))
  }

  @Test func textKnowsFourEscapes() {
    let lexed = Lexer.tokenize(TestSchema.source(#"let a = "q\" b\\ n\n t\t""#))
    #expect(lexed.diagnostics.isEmpty)
    #expect(lexed.tokens[3].text == "q\" b\\ n\n t\t")
  }

  /// Dropping the backslash of an escape it does not know changed the text without a word.
  @Test func anUnknownEscapeIsAnErrorAndKeptAsWritten() throws {
    let source = TestSchema.source(#"let a = "caf\u00e9 \é""#)
    let lexed = Lexer.tokenize(source)
    #expect(
      lexed.diagnostics.map(\.message) == [
        #"'\u' is no escape Reckon knows"#, #"'\é' is no escape Reckon knows"#,
      ])
    #expect(
      lexed.diagnostics.map(\.span) == [
        SourceSpan(start: 12, end: 14), SourceSpan(start: 19, end: 22),
      ])
    #expect(lexed.tokens[3].text == #"caf\u00e9 \é"#)
  }

  @Test(arguments: ["\r", "\u{2028}"])
  func aLineBreakReckonDoesNotReadInTextIsAnError(lineBreak: String) {
    let lexed = Lexer.tokenize(
      TestSchema.source("rule \"r\(lineBreak)rule x\" when true then refund DECLINE\n"))
    #expect(lexed.diagnostics.map(\.id) == [.unsupportedLineBreak])
  }

  /// A byte that is not UTF-8 after a backslash is the file's one encoding error: the escape
  /// does not swallow the closing quote after it.
  @Test func aBadByteAfterABackslashIsOnlyTheEncodingError() throws {
    let contents = Array("let a = \"ab\\".utf8) + [0xE9] + Array("\" or true\n".utf8)
    let lexed = Lexer.tokenize(SourceFile(path: "p.policy", contents: contents))
    #expect(lexed.diagnostics.map(\.id) == [.invalidEncoding])
    #expect(lexed.tokens.map(\.kind).contains(.string))
    #expect(lexed.tokens.map(\.text).contains("or"))
  }

  @Test func oldMacLineEndsAreAnErrorAtTheFirst() throws {
    let source = TestSchema.source("let a = 1\rlet b = 2\r")
    let lexed = Lexer.tokenize(source)
    #expect(lexed.diagnostics.map(\.id) == [.unsupportedLineBreak])
    #expect(lexed.diagnostics.first?.span.start == 9)
  }

  /// Outside a comment a vertical tab is an unexpected character, reported as such, once.
  @Test func aVerticalTabInCodeIsOneUnexpectedCharacter() {
    let lexed = Lexer.tokenize(TestSchema.source("let a = 1\u{0B}\nlet b = 2\n"))
    #expect(lexed.diagnostics.map(\.id) == [.unexpectedCharacter])
  }

  @Test func aFileThatIsNotUTF8IsReportedOnceAtItsFirstBadByteWithLineAndColumn() throws {
    // Latin-1 "café" twice: the second bad byte has the same cause, so one report is enough.
    let contents = Array("# ok\nrule \"caf".utf8) + [0xE9] + Array("\" # caf".utf8) + [0xE9]
    let source = SourceFile(path: "p.policy", contents: contents)
    let lexed = Lexer.tokenize(source)
    let diagnostic = try #require(lexed.diagnostics.first)
    #expect(lexed.diagnostics.count == 1)
    #expect(diagnostic.id == .invalidEncoding)
    #expect(diagnostic.message == "the file is not UTF-8: byte 0xE9 here")
    #expect(source.location(of: diagnostic.span.start) == SourceLocation(line: 2, column: 10))
  }

  @Test func aByteOrderMarkAtTheStartIsNotAToken() {
    let source = SourceFile(
      path: "p.policy", contents: Lexer.byteOrderMark + Array("let a = 1".utf8))
    let lexed = Lexer.tokenize(source)
    #expect(lexed.diagnostics.isEmpty)
    #expect(lexed.tokens.first?.text == "let")
  }
}
