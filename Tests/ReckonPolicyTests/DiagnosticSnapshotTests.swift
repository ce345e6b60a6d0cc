import Testing

@testable import ReckonPolicy

/// Every diagnostic the code can produce, pinned as the author sees it.
struct DiagnosticSnapshotTests {
  struct Example: CustomTestStringConvertible, Sendable {
    let id: DiagnosticID
    let policy: String
    /// Raw file contents, for problems a Swift string cannot hold, such as bytes that are not UTF-8.
    var contents: [UInt8]? = nil
    /// A tests file, for the problems only a tests file can have; `policy` is then unused.
    var tests: String? = nil
    var testDescription: String { id.rawValue }

    /// The tests file's diagnostics and their rendering.
    func parseTests(path: String) -> (ids: [DiagnosticID], rendered: String)? {
      guard let tests else { return nil }
      let source = SourceFile(path: path, text: tests)
      let diagnostics = PolicyTestParser.parse(source, vocabulary: TestSchema.words).diagnostics
      return (diagnostics.map(\.id), DiagnosticFormatter().render(diagnostics, in: source))
    }

    func load(path: String = "test.policy") -> PolicyLoader.Result {
      contents.map { TestSchema.load(contents: $0, path: path) }
        ?? TestSchema.load(policy, path: path)
    }
  }

  static let deepParentheses =
    String(repeating: "(", count: 101) + "true" + String(repeating: ")", count: 101)

  static let examples: [Example] = [
    Example(
      id: .unexpectedCharacter,
      policy: "rule \"r\"\n  when !(reason == LEGAL)\n  then refund DECLINE"),
    Example(
      id: .unterminatedString,
      policy: "rule \"we failed\n  when delivery.status != DELIVERED\n  then refund GRANT_FULL"),
    Example(
      id: .invalidNumber,
      policy: "rule \"r\"\n  when customer.account_age < 90days\n  then refund DECLINE"),
    Example(
      id: .invalidEncoding, policy: "",
      contents: Array("rule \"caf".utf8) + [0xE9]
        + Array("\"\n  when true\n  then refund DECLINE".utf8)
    ),
    Example(
      id: .unknownEscape,
      policy: "rule \"caf\\u00e9\"\n  when true\n  then refund DECLINE"),
    Example(
      id: .unsupportedLineBreak,
      policy:
        "rule \"r\" when reason == LEGAL then refund DECLINE # legal\rrule \"s\" when true then refund GRANT_FULL\n"
    ),
    Example(id: .missingThen, policy: "rule \"r\"\n  when reason == LEGAL\n  refund DECLINE"),
    Example(
      id: .expectedToken, policy: "rule \"r\"\n  when (reason == LEGAL\n  then refund DECLINE"),
    Example(
      id: .expectedKeyword, policy: "rule \"r\"\n  wen reason == LEGAL\n  then refund DECLINE"),
    Example(
      id: .expectedDeclaration, policy: "when reason == LEGAL\n  then refund DECLINE"),
    Example(
      id: .expectedList, policy: "rule \"r\"\n  when reason in LEGAL\n  then refund DECLINE"),
    Example(
      id: .expectedActionSeparator,
      policy:
        "rule \"r\"\n  when reason == LEGAL\n  then refund DECLINE set sampleContentProvided = true"
    ),
    Example(id: .emptyPolicyName, policy: "policy \"\"\notherwise share data only"),
    Example(id: .invalidLetName, policy: "let rule = 1\notherwise share data only"),
    Example(
      id: .invalidNameCharacter,
      policy: "let café = 1\notherwise share data only"),
    Example(
      id: .moneySymbol, policy: "rule \"r\"\n  when purchase.price > $5\n  then refund DECLINE"),
    Example(
      id: .characterInText, policy: "rule \"a\tb\"\n  when reason == LEGAL\n  then refund DECLINE"),
    Example(
      id: .curlyQuotes,
      policy: "rule \u{201C}r\u{201D}\n  when reason == LEGAL\n  then refund DECLINE"),
    Example(
      id: .otherLanguageOperator,
      policy: "rule \"r\"\n  when reason == LEGAL && usage.consumed > 5%\n  then refund DECLINE"),
    Example(
      id: .unknownCurrency,
      policy: "rule \"r\"\n  when purchase.price > 5 XYZ\n  then refund DECLINE"),
    Example(
      id: .letUsedBeforeDefinition,
      policy: "rule \"r\"\n  when heavy\n  then refund DECLINE\nlet heavy = usage.consumed > 80%"),
    Example(id: .bareEnumValue, policy: "rule \"r\"\n  when LEGAL\n  then refund DECLINE"),
    Example(
      id: .conditionNotBoolean, policy: "rule \"r\"\n  when usage.consumed\n  then refund DECLINE"),
    Example(
      id: .fieldTypeMismatch,
      policy: "rule \"r\"\n  when reason == LEGAL\n  then set sampleContentProvided = 5%"),
    Example(
      id: .operatorTypeMismatch,
      policy: "rule \"r\"\n  when usage.consumed + customer.account_age > 5%\n  then refund DECLINE"
    ),
    Example(
      id: .currencyMismatch,
      policy: "rule \"r\"\n  when purchase.price > 5 EUR + 5 USD\n  then refund DECLINE"),
    Example(
      id: .listTypeMismatch,
      policy: "rule \"r\"\n  when reason in [LEGAL, 5]\n  then refund DECLINE"),
    Example(
      id: .fieldSetTwice,
      policy:
        "rule \"r\"\n  when reason == LEGAL\n  then set sampleContentProvided = true, set sampleContentProvided = false"
    ),
    Example(
      id: .actionGivenTwice,
      policy: "rule \"r\"\n  when reason == LEGAL\n  then refund DECLINE, refund DECLINE"),
    Example(
      id: .actionWithoutReply,
      policy:
        "rule \"r\"\n  when reason == LEGAL\n  then do not respond, set sampleContentProvided = true"
    ),
    Example(id: .expectedExpression, policy: "rule \"r\"\n  when reason ==\n  then refund DECLINE"),
    Example(id: .unknownAction, policy: "rule \"r\"\n  when reason == LEGAL\n  then refnd DECLINE"),
    Example(id: .duplicateHeader, policy: "policy \"one\"\nversion 1\npolicy \"two\""),
    Example(
      id: .declarationAfterOtherwise,
      policy:
        "otherwise share data only\n\nrule \"late\"\n  when reason == LEGAL\n  then refund GRANT_FULL"
    ),
    Example(id: .duplicateOtherwise, policy: "otherwise share data only\notherwise do not respond"),
    Example(
      id: .chainedComparison,
      policy: "rule \"r\"\n  when 0% < usage.consumed < 100%\n  then refund GRANT_PRORATED"),
    Example(
      id: .listOutsideIn,
      policy: "rule \"r\"\n  when [LEGAL, OTHER] == reason\n  then refund DECLINE"),
    Example(id: .nestingTooDeep, policy: "let deep = \(deepParentheses)"),
    Example(id: .notAPolicy, policy: "{\n  \"apps\": []\n}\n"),
    Example(
      id: .unknownUnit,
      policy: "rule \"r\"\n  when customer.account_age < 1 month\n  then refund DECLINE"),
    Example(
      id: .assignmentInCondition,
      policy: "rule \"r\"\n  when usage.consumed = 5%\n  then refund DECLINE"),
    Example(
      id: .invalidRuleName,
      policy: "rule \"otherwise\"\n  when reason == LEGAL\n  then refund DECLINE"),
    Example(
      id: .unknownName,
      policy: "let used = usage.consumed\nrule \"r\"\n  when usd > 50%\n  then refund DECLINE"),
    Example(
      id: .unknownFact, policy: "rule \"r\"\n  when usage.consumd > 50%\n  then refund DECLINE"),
    Example(
      id: .unknownEnumValue,
      policy: "rule \"r\"\n  when reason in [LEGAL, FULFILMENT_ISSUE]\n  then refund DECLINE"),
    Example(
      id: .unknownField,
      policy: "rule \"r\"\n  when reason == LEGAL\n  then refund DECLINE, set sampleContent = true"),
    Example(
      id: .unknownFunction,
      policy: "rule \"r\"\n  when rnd(usage.consumed) > 50%\n  then refund DECLINE"),
    Example(id: .duplicateLet, policy: "let used = usage.consumed\nlet used = 50%"),
    Example(id: .letShadowsFact, policy: "let usage = usage.consumed"),
    Example(
      id: .letShadowsValue,
      policy:
        "let LEGAL = reason == OTHER\nrule \"r\"\n  when reason == LEGAL\n  then refund DECLINE"),
    Example(
      id: .duplicateRuleName,
      policy:
        "rule \"legal\"\n  when reason == LEGAL\n  then refund GRANT_FULL\n\nrule \"legal\"\n  when reason == OTHER\n  then refund DECLINE"
    ),
    Example(
      id: .typeMismatch, policy: "rule \"r\"\n  when usage.consumed >= 80\n  then refund DECLINE"),
    Example(
      id: .invalidOperand, policy: "rule \"r\"\n  when -customer.consented\n  then refund DECLINE"),
    Example(
      id: .invalidArguments,
      policy: "rule \"r\"\n  when max(usage.consumed) > 50%\n  then refund DECLINE"),
    Example(
      id: .percentOutOfRange,
      policy: "rule \"r\"\n  when usage.consumed > 120%\n  then refund DECLINE"),
    Example(
      id: .conflictingActions,
      policy: "rule \"r\"\n  when reason == LEGAL\n  then refund GRANT_FULL, do not respond"),
    Example(
      id: .divisionByZero,
      policy: "rule \"r\"\n  when customer.refunds_last_90_days / 0 > 1\n  then refund DECLINE"),
    Example(id: .emptyPolicy, policy: "# refunds: to be written\nlet used = usage.consumed\n"),
    Example(
      id: .unreachableRule,
      policy:
        "rule \"everyone\"\n  when true\n  then refund DECLINE\n\nrule \"legal\"\n  when reason == LEGAL\n  then refund GRANT_FULL"
    ),
    Example(id: .neverMatches, policy: "rule \"never\"\n  when 2 < 1\n  then refund DECLINE"),
    Example(
      id: .shadowedRule,
      policy: """
        rule "legal"
          when reason == LEGAL
          then refund GRANT_FULL

        rule "legal and used"
          when reason == LEGAL and usage.consumed > 50%
          then refund DECLINE
        """),
    Example(
      id: .unguardedOptionalFact,
      policy: "rule \"idle\"\n  when now - usage.last_used > 30 days\n  then refund GRANT_FULL"),
    Example(
      id: .proratedWithoutUsageBound,
      policy: "rule \"partly\"\n  when product.type == CONSUMABLE\n  then refund GRANT_PRORATED"),
    Example(
      id: .refundForExcludedProduct,
      policy: """
        rule "subscriptions are not ours to judge"
          when product.type == AUTO_RENEWABLE
          then share data only

        rule "non-consumables are final"
          when product.type == NON_CONSUMABLE
          then do not respond

        rule "refund accidental purchases"
          when product.type in [AUTO_RENEWABLE, NON_CONSUMABLE] and reason == UNINTENDED_PURCHASE
          then refund GRANT_FULL
        """),
    Example(
      id: .constantPercentCondition,
      policy:
        "rule \"any use\"\n  when usage.consumed >= 0% and reason == LEGAL\n  then refund DECLINE"),
    Example(
      id: .answersWithoutConsent,
      policy: "rule \"goodwill\"\n  when customer.consented == false\n  then refund GRANT_FULL"),
    Example(
      id: .percentageAppleRefuses,
      policy:
        "rule \"subscriptions\"\n  when product.type == AUTO_RENEWABLE\n  then refund DECLINE, set consumptionPercentage = 50%"
    ),
    Example(
      id: .duplicateGiven, policy: "",
      tests: """
        test "heavy use"
          given usage.consumed = 94%
          given usage.consumed = 40%
          expect refund DECLINE
        """),
    Example(
      id: .conflictingExpectations, policy: "",
      tests: """
        test "heavy use"
          given usage.consumed = 94%
          expect refund DECLINE, share data only
        """),
    Example(
      id: .invalidDate,
      policy: "rule \"r\"\n  when purchase.date >= 2026-02-30\n  then refund DECLINE"),
    Example(
      id: .namedListOutsideIn,
      policy:
        "let packs = [\"com.example.coins.100\"]\nrule \"r\"\n  when product.id == packs\n  then refund DECLINE"
    ),
    Example(
      id: .notAList,
      policy:
        "let pack = \"com.example.coins.100\"\nrule \"r\"\n  when product.id in pack\n  then refund DECLINE"
    ),
    Example(
      id: .holdWithThen,
      policy: "hold \"big purchases\"\n  when purchase.price > 50 USD\n  then refund DECLINE"),
    Example(
      id: .holdWithoutAnswer,
      policy: "rule \"big purchases\"\n  when purchase.price > 50 USD\n  then hold for review"),
    Example(
      id: .followNotAnswer,
      policy: "rule \"r\"\n  when reason == LEGAL\n  then follow delivery.status"),
    Example(
      id: .followUnguarded,
      policy: "rule \"support said so\"\n  when reason == LEGAL\n  then follow customer.override"),
    Example(
      id: .setContradictsFacts,
      policy:
        "rule \"we failed\"\n  when delivery.status != DELIVERED\n  then refund GRANT_FULL, set deliveryStatus = DELIVERED"
    ),
    Example(
      id: .singleCurrencyMoney,
      policy:
        "rule \"expensive\"\n  when purchase.price is not missing and purchase.price > 50 USD\n  then refund DECLINE"
    ),
    Example(
      id: .unusedLet,
      policy:
        "let heavy = usage.consumed > 80%\nrule \"r\"\n  when reason == LEGAL\n  then refund DECLINE"
    ),
    Example(
      id: .mixedAndOr,
      policy:
        "rule \"r\"\n  when reason == LEGAL or reason == FULFILLMENT_ISSUE and usage.consumed < 10%\n  then refund GRANT_FULL"
    ),
    Example(
      id: .testSyntax, policy: "",
      tests: """
        test "heavy use"
          given usage.consumed 94%
          expect refund DECLINE
        """),
  ]

  /// Problems only `reckon test` finds (ReckonTools checks a test's values against the policy);
  /// their examples are in ReckonToolsTests.
  static let foundByTheTestRunner: Set<DiagnosticID> = [
    .givenLet, .invalidTestValue, .invalidExpectedValue,
  ]

  /// Problems only the host finds, deciding sample requests with a policy before it goes live
  /// (`AnswerCoverage` in ReckonEngine); their examples are in ReckonEngineTests.
  static let foundByTheHost: Set<DiagnosticID> = [.unansweredRequests]

  @Test("each diagnostic renders as its golden file", arguments: examples)
  func rendersAsSnapshot(_ example: Example) {
    if let (ids, rendered) = example.parseTests(path: "policies/example.tests") {
      #expect(ids == [example.id], "\(rendered)")
      Snapshot.expect(rendered, matches: "diagnostic-\(example.id.rawValue)")
      return
    }
    let result = example.load(path: "policies/example.policy")
    #expect(result.diagnostics.map(\.id) == [example.id], "\(result.renderedDiagnostics())")
    #expect(result.diagnostics.allSatisfy { $0.severity == $0.id.severity })
    Snapshot.expect(result.renderedDiagnostics(), matches: "diagnostic-\(example.id.rawValue)")
  }

  @Test func everyDiagnosticIDHasAnExample() {
    let covered = Set(Self.examples.map(\.id)).union(Self.foundByTheTestRunner).union(
      Self.foundByTheHost)
    let missing = DiagnosticID.allCases.filter { !covered.contains($0) }
    #expect(missing.isEmpty)
    #expect(
      Self.examples.count + Self.foundByTheTestRunner.count + Self.foundByTheHost.count
        == DiagnosticID.allCases.count)
  }

  /// docs/language.md: warnings come from analysing a policy that checks, so a file with errors
  /// shows its errors only, here a syntax error beside rules that would draw warnings.
  @Test func aFileWithErrorsShowsItsErrorsOnly() {
    let result = TestSchema.load(
      """
      rule "x" when true then refund DECLINE
      otherwise refund DECLINE
      rule "y" when true then refund DECLINE
      otherwise share data only
      """)
    #expect(
      result.diagnostics.map(\.id) == [.declarationAfterOtherwise, .duplicateOtherwise],
      "\(result.renderedDiagnostics())")
  }

  @Test func warningsDoNotStopALoadButErrorsDo() {
    for example in Self.examples where example.tests == nil {
      let result = example.load()
      let isWarning = result.diagnostics.allSatisfy { $0.severity == .warning }
      #expect((result.policy != nil) == isWarning, "\(example.id)")
    }
  }

  @Test func oneRunReportsEveryProblemInTheFile() {
    let policy = """
      policy "many problems"
      policy "twice"

      let used = usage.consumd

      rule "stray character"
        when reason == LEGAL & used > 0%
        then refund DECLINE

      rule "missing then"
        when reason == OTHER
        refund GRANT_FULL

      rule "bad value"
        when delivery.status != DELIVERD
        then refund GRANT_FULL

      rule "bad type"
        when customer.account_age > 30
        then refnd DECLINE

      rule "conflict"
        when product.type == CONSUMABLE
        then refund GRANT_FULL, refund DECLINE

      otherwise share data only
      """
    let result = TestSchema.load(policy, path: "policies/many.policy")
    #expect(
      result.diagnostics.map(\.id) == [
        .duplicateHeader, .unknownFact, .unexpectedCharacter, .missingThen, .missingThen,
        .unknownEnumValue,
        .typeMismatch, .unknownAction, .conflictingActions,
      ])
    Snapshot.expect(result.renderedDiagnostics(), matches: "diagnostics-all-in-one-run")
  }
}
