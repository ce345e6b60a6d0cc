/// Parses a tests file (`NAME.tests`) with the policy language's lexer, reporting every syntax error
/// with its span and carrying on at the next clause.
///
/// ```
/// test "heavy use is declined"
///   given reason = UNSATISFIED_WITH_PURCHASE, usage.consumed = 94%
///   expect refund DECLINE, rule "heavy use"
/// ```
///
/// `store NAME` (before the first test, or in one) names the store whose request the tests
/// describe; the name is read by the runner, which knows the stores.
public struct PolicyTestParser {
  static let clauseWords: Set<String> = ["test", "given", "expect", "store"]

  /// What an expectation may start with, for the hint after a misspelt one.
  private var expectationPhrases: [String] {
    [vocabulary.choose.text] + vocabulary.plainActions.map(\.phrase.text) + [
      "no reply", "rule", "otherwise",
    ]
  }

  private var cursor: TokenCursor
  private let vocabulary: PolicyVocabulary
  private let bytes: [UInt8]
  private(set) var diagnostics: [Diagnostic]

  /// Creates a parser over a tests file whose decisions are written in `vocabulary`; lexical
  /// problems join its diagnostics.
  public init(_ source: SourceFile, vocabulary: PolicyVocabulary) {
    self.vocabulary = vocabulary
    let lexed = Lexer.tokenize(source)
    cursor = TokenCursor(lexed.tokens)
    bytes = source.bytes
    diagnostics = lexed.diagnostics
  }

  /// Parses a whole tests file whose decisions are written in `vocabulary`, and returns it with
  /// every lexical and syntax diagnostic.
  public static func parse(_ source: SourceFile, vocabulary: PolicyVocabulary) -> (
    file: PolicyTestFile, diagnostics: [Diagnostic]
  ) {
    var parser = PolicyTestParser(source, vocabulary: vocabulary)
    let file = parser.parseFile()
    return (file, parser.diagnostics)
  }

  mutating func parseFile() -> PolicyTestFile {
    var file = PolicyTestFile(defaults: [], tests: [])
    while cursor.kind != .endOfFile {
      let before = cursor.position
      do {
        if cursor.isWord("given"), file.tests.isEmpty {
          file.defaults += try parseGiven()
          try expectClauseEnd()
        } else if cursor.isWord("store"), file.tests.isEmpty {
          file.store = try parseStore(earlier: file.store)
          try expectClauseEnd()
        } else if cursor.isWord("test") {
          let test = try parseTest()
          // A failure names its test: two of one name would leave the reader guessing which.
          if let earlier = file.tests.first(where: { $0.name.value == test.name.value }) {
            report(
              "another test is already called '\(test.name.value)' (line \(line(of: earlier.name.span.start)))",
              at: test.name.span, hint: "give each test its own name, so a failure says which one")
          }
          file.tests.append(test)
        } else {
          let hint =
            cursor.isWord("given") || cursor.isWord("store")
            ? "file-wide '\(cursor.current.text)' lines come before the first test" : nil
          report(
            "expected 'test \"NAME\"', found \(cursor.current.quoted)", at: cursor.current.span,
            hint: hint)
          throw ParseAbort()
        }
      } catch {
        if cursor.position == before { cursor.advance() }
        synchronize(to: ["test"])
      }
    }
    reportClashes(
      PolicyTestConsistency.repeatedGivens(file.defaults, scope: "before the first test"))
    // A tests file that tests nothing would pass, and a CI gate on it would go green.
    if file.tests.isEmpty, diagnostics.isEmpty {
      report(
        "the file has no test", at: SourceSpan(start: 0, end: min(1, bytes.count)),
        hint:
          "add one, as in: test \"heavy use is declined\" / given \(vocabulary.examples.percentFact) = 90% / expect \(vocabulary.choose.text) \(vocabulary.examples.decline)"
      )
    }
    return file
  }

  /// Reports each clash at its later clause, citing the line of the earlier one.
  private mutating func reportClashes(_ clashes: [PolicyTestConsistency.Clash]) {
    for clash in clashes {
      diagnostics.append(
        Diagnostic(
          clash.id, .error, clash.message + " (line \(line(of: clash.earlier.start)))",
          at: clash.span, hint: clash.hint))
    }
  }

  private mutating func parseTest() throws(ParseAbort) -> PolicyTestCase {
    let start = cursor.advance().span
    let name = try expect(
      .string, "the test's name in double quotes, as in test \"heavy use is declined\"",
      sameLine: true)
    var test = PolicyTestCase(
      name: Located(name.text, at: name.span), givens: [], expectations: [], span: start)
    // A clause that did not read may have been an `expect`: "expects nothing" would only add a
    // second error for the same mistake.
    var clauseFailed = false
    while cursor.isWord("given") || cursor.isWord("expect") || cursor.isWord("store") {
      do {
        if cursor.isWord("given") {
          test.givens += try parseGiven()
        } else if cursor.isWord("store") {
          test.store = try parseStore(earlier: test.store)
        } else {
          test.expectations += try parseExpect()
        }
        try expectClauseEnd()
      } catch {
        clauseFailed = true
        synchronize()
      }
    }
    reportClashes(PolicyTestConsistency.repeatedGivens(test.givens, scope: "in this test"))
    reportClashes(
      PolicyTestConsistency.clashingExpectations(test.expectations, words: vocabulary))
    if test.expectations.isEmpty, !clauseFailed {
      report(
        "test \"\(name.text)\" expects nothing", at: name.span,
        hint:
          "add a line such as: expect \(vocabulary.choose.text) \(vocabulary.examples.decline)")
    }
    test.span = SourceSpan(start: start.start, end: cursor.previousEnd)
    return test
  }

  /// `store NAME`; a second in one place is an error, as a second `given` of one fact is.
  private mutating func parseStore(earlier: Located<String>?) throws(ParseAbort)
    -> Located<String>
  {
    cursor.advance()
    let name = try expect(
      .identifier, "the store's name, such as appStore or googlePlay", sameLine: true)
    if let earlier {
      report(
        "the store is already named (line \(line(of: earlier.span.start)))", at: name.span,
        hint: "name the store once")
    }
    return Located(name.text, at: name.span)
  }

  private mutating func parseGiven() throws(ParseAbort) -> [FactAssignment] {
    cursor.advance()
    var assignments = [try parseAssignment()]
    while cursor.kind == .comma {
      let comma = cursor.advance()
      try refuseClauseAfter(comma)
      assignments.append(try parseAssignment())
    }
    return assignments
  }

  /// A list may go on after a comma on the next line; a clause there (`expect`, `test`) means
  /// the comma ended the list by mistake, and reading the clause's word as an item would hide
  /// that. A word followed by `=` or `is` is an item whatever its spelling.
  private mutating func refuseClauseAfter(_ comma: Token) throws(ParseAbort) {
    let next = cursor.peek()
    guard cursor.current.startsLine, cursor.kind == .identifier,
      PolicyTestParser.clauseWords.contains(cursor.current.text), next.kind != .assign,
      !(next.kind == .identifier && next.text == "is")
    else { return }
    report(
      "the line ends with ',' but '\(cursor.current.text)' on the next starts a new clause",
      at: comma.span, hint: "remove the ',', or add what the list lacks after it")
    throw ParseAbort()
  }

  private mutating func parseAssignment() throws(ParseAbort) -> FactAssignment {
    let fact = try expect(
      .identifier, "a fact name, such as \(vocabulary.examples.percentFact)")
    let value = try parseValueOrMissing()
    return FactAssignment(
      fact: Located(fact.text, at: fact.span), value: value,
      span: fact.span.merged(with: value?.span ?? fact.span)
    ).withEnd(cursor.previousEnd)
  }

  private mutating func parseExpect() throws(ParseAbort) -> [Expectation] {
    cursor.advance()
    var expectations = [try parseExpectation()]
    while cursor.kind == .comma {
      let comma = cursor.advance()
      try refuseClauseAfter(comma)
      expectations.append(try parseExpectation())
    }
    return expectations
  }

  private mutating func parseExpectation() throws(ParseAbort) -> Expectation {
    let first = cursor.current
    let kind: Expectation.Kind
    // A word before `=` or `is` is a field or a let whatever its spelling: a policy may name a let
    // `share` or `hold`, and no phrase below is followed by either.
    let namesAValue =
      first.kind == .identifier
      && (cursor.peek().kind == .assign
        || cursor.peek().kind == .identifier && cursor.peek().text == "is")
    let word = first.kind == .identifier && !namesAValue ? first.text : ""
    let plain = vocabulary.plainActions.first { $0.phrase.words.first == word }
    switch word {
    case vocabulary.choose.words.first:
      try words(vocabulary.choose.words)
      let choice = try expect(
        .identifier,
        "what the \(vocabulary.choiceNoun) should be, such as \(vocabulary.examples.decline)",
        sameLine: true)
      kind = .choose(Located(choice.text, at: choice.span))
    case _ where plain != nil:
      guard let plain else { throw ParseAbort() }
      try words(plain.phrase.words)
      kind = Self.expectation(of: plain.kind)
    case "no":
      try words("no", "reply")
      kind = .noReply
    case "otherwise":
      cursor.advance()
      kind = .otherwise
    case "rule":
      cursor.advance()
      let name = try expect(.string, "the rule's name in double quotes", sameLine: true)
      kind = .rule(Located(name.text, at: name.span))
    case _ where namesAValue:
      cursor.advance()
      kind = .field(Located(first.text, at: first.span), try parseValueOrMissing())
    default:
      let hint =
        Suggestions.closest(to: first.text, among: expectationPhrases).map {
          "did you mean '\($0)'?"
        }
        ?? "expect one of: \(vocabulary.choose.text) CHOICE, "
        + vocabulary.plainActions.map { $0.phrase.text + ", " }.joined()
        + "no reply, rule \"NAME\", "
        + "otherwise, FIELD = VALUE"
      report(
        "expected what the decision should be, found \(first.quoted)", at: first.span, hint: hint)
      throw ParseAbort()
    }
    return Expectation(
      kind: kind, span: SourceSpan(start: first.span.start, end: cursor.previousEnd))
  }

  /// What expecting the action `kind` (one of the vocabulary's plain actions) is.
  private static func expectation(of kind: Action.Kind) -> Expectation.Kind {
    switch kind {
    case .replyWithoutChoice: .replyWithoutChoice
    case .withholdReply: .withholdReply
    default: .holdForReview
    }
  }

  /// `= VALUE` (the tokens up to a comma or the end of the line) or `is missing` (nil).
  private mutating func parseValueOrMissing() throws(ParseAbort) -> TestValue? {
    if cursor.isWord("is") {
      cursor.advance()
      try words("missing")
      return nil
    }
    let assign = try expect(.assign, "'=' or 'is missing'")
    let first = cursor.current
    guard first.kind != .endOfFile, first.kind != .comma, !first.startsLine else {
      // Nothing after '=' on its line: the caret goes under the '=', not the next line's word.
      report(
        "expected a value after '='", at: first.kind == .comma ? first.span : assign.span,
        hint: "write the value on the same line, as in \(vocabulary.examples.percentFact) = 40%")
      throw ParseAbort()
    }
    if first.kind == .string {
      cursor.advance()
      return TestValue(text: first.text, isQuoted: true, span: first.span)
    }
    var last = cursor.advance()
    while cursor.kind != .endOfFile, cursor.kind != .comma, !cursor.current.startsLine,
      !(cursor.kind == .identifier && PolicyTestParser.clauseWords.contains(cursor.current.text))
    {
      last = cursor.advance()
    }
    let span = first.span.merged(with: last.span)
    return TestValue(text: source(span), isQuoted: false, span: span)
  }

  // MARK: Helpers

  private func source(_ span: SourceSpan) -> String {
    String(decoding: bytes[span.start..<span.end], as: UTF8.self)
  }

  private mutating func words(_ expected: String...) throws(ParseAbort) {
    try words(expected)
  }

  private mutating func words(_ expected: [String]) throws(ParseAbort) {
    for (index, word) in expected.enumerated() {
      guard cursor.isWord(word) else {
        // The phrase's first word is what it starts with; a later one may be cut short.
        reportMissing("'\(word)'", onThisLine: index > 0)
        throw ParseAbort()
      }
      cursor.advance()
    }
  }

  @discardableResult
  private mutating func expect(_ kind: Token.Kind, _ what: String, sameLine: Bool = false)
    throws(ParseAbort) -> Token
  {
    guard cursor.kind == kind, !(sameLine && cursor.current.startsLine) else {
      reportMissing(what, onThisLine: sameLine)
      throw ParseAbort()
    }
    return cursor.advance()
  }

  /// Reports `what` missing at the current token; when it belongs `onThisLine` and the line
  /// ended first, at the line's last word instead, not at the next line's first.
  private mutating func reportMissing(_ what: String, onThisLine: Bool) {
    if onThisLine, cursor.current.startsLine || cursor.kind == .endOfFile,
      let previous = cursor.previous
    {
      report("the line ends after \(previous.quoted): expected \(what)", at: previous.span)
    } else {
      report("expected \(what), found \(cursor.current.quoted)", at: cursor.current.span)
    }
  }

  /// After a clause: the next token starts a new line (or the file ends).
  private mutating func expectClauseEnd() throws(ParseAbort) {
    guard cursor.kind != .endOfFile, !cursor.current.startsLine else { return }
    report("expected ',' or a new line, found \(cursor.current.quoted)", at: cursor.current.span)
    throw ParseAbort()
  }

  private mutating func synchronize(to words: Set<String> = PolicyTestParser.clauseWords) {
    while cursor.kind != .endOfFile {
      if cursor.current.startsLine, cursor.kind == .identifier, words.contains(cursor.current.text)
      {
        return
      }
      cursor.advance()
    }
  }

  /// The line `offset` is on, counting from 1.
  private func line(of offset: Int) -> Int {
    bytes[..<min(offset, bytes.count)].reduce(1) { $0 + ($1 == UInt8(ascii: "\n") ? 1 : 0) }
  }

  private mutating func report(_ message: String, at span: SourceSpan, hint: String? = nil) {
    diagnostics.append(Diagnostic(.testSyntax, .error, message, at: span, hint: hint))
  }
}

extension FactAssignment {
  fileprivate func withEnd(_ end: Int) -> FactAssignment {
    var copy = self
    copy.span = SourceSpan(start: span.start, end: max(span.end, end))
    return copy
  }
}
