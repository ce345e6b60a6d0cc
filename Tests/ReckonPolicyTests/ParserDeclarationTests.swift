import Testing

@testable import ReckonPolicy

struct ParserDeclarationTests {
  static let wholeFile = """
    # policies/targeted.policy
    policy "targeted"
    version 4
    description "Decline for purchases clearly used up."

    let used  = usage.consumed            # a percent
    let heavy = used >= 80%

    rule "we failed to deliver"
      when delivery.status != DELIVERED
      then refund GRANT_FULL

    rule "serial refunder"
      when customer.refunds_last_90_days >= 3
      then refund DECLINE, set sampleContentProvided = true, hold for review

    rule "quiet"
      when heavy
      then do not respond

    otherwise share data only
    """

  @Test func wholeFileParsesIntoHeadersLetsRulesAndOtherwise() throws {
    let source = TestSchema.source(Self.wholeFile)
    let (syntax, diagnostics) = Parser.parse(source)
    #expect(diagnostics.isEmpty)
    #expect(syntax.name?.value == "targeted")
    #expect(syntax.version?.value == "4")
    #expect(syntax.summary?.value == "Decline for purchases clearly used up.")
    #expect(syntax.lets.map(\.name.value) == ["used", "heavy"])
    #expect(syntax.rules.map(\.name.value) == ["we failed to deliver", "serial refunder", "quiet"])
    #expect(syntax.comments.count == 2)
    let otherwise = try #require(syntax.otherwise)
    #expect(otherwise.actions.map(\.kind) == [.replyWithoutChoice])
    #expect(source.text(of: otherwise.span) == "otherwise share data only")
    #expect(source.text(of: syntax.lets[1].span) == "let heavy = used >= 80%")
    #expect(
      source.text(of: syntax.rules[0].span)
        == "rule \"we failed to deliver\"\n  when delivery.status != DELIVERED\n  then refund GRANT_FULL"
    )
    #expect(source.text(of: syntax.rules[0].name.span) == "\"we failed to deliver\"")
  }

  @Test func everyActionPhraseParsesWithItsSpan() throws {
    let source = TestSchema.source(
      "rule \"r\" when true then refund GRANT_PRORATED, share data only, do not respond, hold for review, set consumptionPercentage = 40%"
    )
    let (syntax, diagnostics) = Parser.parse(source)
    #expect(diagnostics.isEmpty)
    let actions = try #require(syntax.rules.first).actions
    #expect(
      actions.map { source.text(of: $0.span) } == [
        "refund GRANT_PRORATED", "share data only", "do not respond", "hold for review",
        "set consumptionPercentage = 40%",
      ])
    guard case .choose(let choice) = actions[0].kind,
      case .set(let field, let value) = actions[4].kind
    else {
      Issue.record("unexpected actions \(actions)")
      return
    }
    #expect(choice.value == "GRANT_PRORATED")
    #expect(field.value == "consumptionPercentage")
    #expect(value.kind == .literal(.percent(40)))
  }

  @Test func fileWithoutOtherwiseHasNone() {
    let (syntax, diagnostics) = Parser.parse(
      TestSchema.source("rule \"r\" when true then refund DECLINE"))
    #expect(diagnostics.isEmpty)
    #expect(syntax.otherwise == nil)
  }

  @Test func unknownActionSuggestsTheClosestPhrase() throws {
    let (_, diagnostics) = Parser.parse(
      TestSchema.source("rule \"r\" when true then refnd DECLINE"))
    let diagnostic = try #require(diagnostics.first)
    #expect(diagnostic.id == .unknownAction)
    #expect(diagnostic.hint == "did you mean 'refund'?")
  }

  @Test func actionsWithoutACommaAreAnError() {
    let (_, diagnostics) = Parser.parse(
      TestSchema.source("rule \"r\" when true then refund DECLINE hold for review"))
    #expect(diagnostics.map(\.id) == [.expectedActionSeparator])
  }

  @Test(arguments: ["Rule \"b\" when true then refund DECLINE", "OTHERWISE share data only"])
  func aCapitalisedKeywordAfterARuleIsSaidToBeLowerCase(next: String) throws {
    let (_, diagnostics) = Parser.parse(
      TestSchema.source("rule \"r\" when true then refund DECLINE\n" + next))
    let diagnostic = try #require(diagnostics.first)
    #expect(diagnostic.id == .expectedActionSeparator)
    #expect(diagnostic.hint?.hasPrefix("keywords are written in lower case: ") == true)
  }

  @Test func duplicateHeaderIsReportedAtTheSecond() throws {
    let source = TestSchema.source("policy \"a\"\nversion 1\npolicy \"b\"\nversion 2")
    let (syntax, diagnostics) = Parser.parse(source)
    #expect(diagnostics.map(\.id) == [.duplicateHeader, .duplicateHeader])
    #expect(diagnostics.map { source.text(of: $0.span) } == ["\"b\"", "2"])
    #expect(syntax.name?.value == "a")
  }

  /// Decisions record the policy's name; an empty one named nothing.
  @Test(arguments: ["\"\"", "\"   \""])
  func anEmptyPolicyNameIsAnError(_ name: String) throws {
    let source = TestSchema.source("policy \(name)\notherwise share data only")
    let (_, diagnostics) = Parser.parse(source)
    let diagnostic = try #require(diagnostics.first)
    #expect(diagnostics.count == 1)
    #expect(diagnostic.message == "a policy's name cannot be empty")
    #expect(source.text(of: diagnostic.span) == name)
  }

  @Test func ruleAndLetAfterOtherwiseAreErrors() {
    let source =
      "otherwise share data only\nrule \"late\" when true then refund DECLINE\nlet x = 1\notherwise do not respond"
    let (_, diagnostics) = Parser.parse(TestSchema.source(source))
    #expect(
      diagnostics.map(\.id) == [
        .declarationAfterOtherwise, .declarationAfterOtherwise, .duplicateOtherwise,
      ])
  }

  @Test func misspelledDeclarationKeywordGetsASuggestion() throws {
    let (_, diagnostics) = Parser.parse(
      TestSchema.source("rulle \"r\" when true then refund DECLINE"))
    let diagnostic = try #require(diagnostics.first)
    #expect(diagnostics.count == 1)
    #expect(diagnostic.id == .expectedDeclaration)
    #expect(diagnostic.hint == "did you mean 'rule'?")
  }

  @Test(arguments: ["let and = 1", "let usage.x = 1"])
  func reservedOrDottedLetNamesAreRejected(_ text: String) {
    let (_, diagnostics) = Parser.parse(TestSchema.source(text))
    #expect(diagnostics.map(\.id) == [.invalidLetName])
  }

  @Test func threeBrokenRulesGiveThreeErrorsAndTheGoodRulesAfterThemParse() {
    let text = """
      rule "one" when usage.consumed >= then refund DECLINE
      rule "two" when (reason == LEGAL then refund DECLINE
      rule "three" delivery.status == DELIVERED then refund DECLINE
      rule "good" when reason == LEGAL then refund GRANT_FULL
      let x = 1
      rule "also good" when x > 0 then refund DECLINE
      """
    let (syntax, diagnostics) = Parser.parse(TestSchema.source(text))
    #expect(diagnostics.count == 3)
    #expect(diagnostics.map(\.id) == [.expectedExpression, .expectedToken, .expectedKeyword])
    #expect(syntax.rules.map(\.name.value) == ["one", "two", "three", "good", "also good"])
    #expect(syntax.rules[3].condition.kind != .invalid)
    #expect(syntax.rules[4].actions.count == 1)
    #expect(syntax.lets.map(\.name.value) == ["x"])
  }

  @Test func brokenLetValueIsOneErrorNotTwo() {
    let (syntax, diagnostics) = Parser.parse(
      TestSchema.source("let x = (a b)\nrule \"r\" when true then refund DECLINE"))
    #expect(diagnostics.map(\.id) == [.expectedToken])
    #expect(syntax.rules.count == 1)
  }

  @Test func garbageBetweenDeclarationsIsReportedOnce() {
    let (syntax, diagnostics) = Parser.parse(
      TestSchema.source("42 , junk\nrule \"r\" when true then refund DECLINE"))
    #expect(diagnostics.map(\.id) == [.expectedDeclaration])
    #expect(syntax.rules.count == 1)
  }
}

struct EndOfFileErrorTests {
  struct EndCase: CustomTestStringConvertible, Sendable {
    let policy: String
    let location: ReckonPolicy.SourceLocation
    var testDescription: String { policy.debugDescription }
  }

  static let cases: [EndCase] = [
    EndCase(
      policy: "rule \"r\"\n  when true\n  then refund\n",
      location: ReckonPolicy.SourceLocation(line: 3, column: 14)),
    EndCase(policy: "otherwise\n\n", location: ReckonPolicy.SourceLocation(line: 1, column: 10)),
    EndCase(
      policy: "rule \"r\"\n  when reason ==  \n# nothing follows\n",
      location: ReckonPolicy.SourceLocation(line: 2, column: 17)),
    EndCase(policy: "", location: ReckonPolicy.SourceLocation(line: 1, column: 1)),
  ]

  @Test(
    "an error at the end of the file points just after the last token, on its line",
    arguments: cases)
  func endOfFileErrorIsOnTheLastTokensLine(_ testCase: EndCase) throws {
    let source = TestSchema.source(testCase.policy)
    let (_, diagnostics) = Parser.parse(source)
    guard !testCase.policy.isEmpty else {
      #expect(diagnostics.isEmpty)
      #expect(Lexer.tokenize(source).tokens.last?.span == SourceSpan(start: 0, end: 0))
      return
    }
    let error = try #require(diagnostics.first)
    #expect(diagnostics.count == 1)
    #expect(error.message.hasSuffix("found the end of the file"))
    #expect(source.location(of: error.span.start) == testCase.location)
  }
}
