import Testing

@testable import ReckonPolicy

/// Second-round additions: a `let` may name a list for `in`, and dates are literals in UTC.
struct NamedListAndDateTests {
  static let packs = """
    let coin_packs = ["com.example.coins.100", "com.example.coins"]
    let legal = [LEGAL, OTHER]
    rule "pack" when product.id in coin_packs and reason in legal then refund DECLINE
    rule "other pack" when product.id not in coin_packs then refund GRANT_FULL
    """

  @Test(
    arguments: [
      ("com.example.coins", "OTHER", 0), ("com.example.coins", "UNINTENDED_PURCHASE", nil),
      ("com.example.gems", "OTHER", 1),
    ] as [(String, String, Int?)])
  func aNamedListIsTestedAsTheListWrittenThere(product: String, reason: String, rule: Int?)
    throws
  {
    let policy = try TestSchema.compile(Self.packs)
    let facts = try TestSchema.baseFacts([
      "product.id": .text(product), "reason": TestSchema.enumValue(TestSchema.reason, reason),
    ])
    #expect(policy.evaluate(facts, trace: false).rule == rule)
    #expect(policy.evaluate(facts, trace: true).rule == rule)
  }

  @Test func aNamedListsItemsAreTypedWhereItIsUsed() {
    let ids = TestSchema.errorIDs(
      """
      let packs = [LEGAL, 3]
      rule "r" when reason in packs then refund DECLINE
      """)
    #expect(ids == [.listTypeMismatch])
  }

  @Test(arguments: [
    (
      "let packs = [LEGAL]\nrule \"r\" when reason == packs then refund DECLINE",
      DiagnosticID.namedListOutsideIn
    ),
    ("let pack = \"a\"\nrule \"r\" when product.id in pack then refund DECLINE", .notAList),
    (
      "rule \"r\" when reason in packs then refund DECLINE\nlet packs = [LEGAL]",
      .letUsedBeforeDefinition
    ),
    ("rule \"r\" when reason in LEGAL then refund DECLINE", .expectedList),
  ])
  func aNamedListUsedWronglyIsOneError(policy: String, id: DiagnosticID) {
    #expect(TestSchema.errorIDs(policy) == [id])
  }

  /// A list of the wrong kind for its use is one error where it is used, naming its line.
  @Test func aNamedListOfTheWrongKindIsReportedWhereItIsUsed() {
    let result = TestSchema.load(
      "let packs = [\"a\", \"b\"]\n\nrule \"r\" when reason in packs then refund DECLINE")
    let errors = result.diagnostics.filter(\.isError)
    #expect(errors.count == 1)
    #expect(errors.first.map { result.source.location(of: $0.span.start).line } == 3)
    #expect(errors.first?.message.hasPrefix("the list 'packs' holds text (line 1)") == true)
  }

  /// A list nothing tests against is still checked, as far as it can be without a fact.
  @Test(arguments: [
    ("let packs = [\"a\"]\nlet nested = [packs]", DiagnosticID.namedListOutsideIn),
    ("let bad = [LEGAL, DELIVERD]", .unknownEnumValue),
    ("let mixed = [\"a\", 3]", .listTypeMismatch),
    ("let mixed = [3, LEGAL]", .listTypeMismatch),
    ("let two = [LEGAL, DELIVERED]", .listTypeMismatch),
    ("let sum = [1 + \"a\"]", .operatorTypeMismatch),
  ])
  func anUnusedNamedListIsStillChecked(lets: String, id: DiagnosticID) {
    let policy = lets + "\nrule \"r\" when usage.consumed > 5% then refund DECLINE"
    #expect(TestSchema.errorIDs(policy) == [id])
  }

  @Test(arguments: ["[LEGAL, OTHER]", "[\"a\", \"b\"]", "[1 USD, 2 USD]", "[]"])
  func anUnusedNamedListOfOneKindIsOnlyUnused(list: String) {
    let result = TestSchema.load(
      "let l = \(list)\nrule \"r\" when usage.consumed > 5% then refund DECLINE")
    #expect(result.diagnostics.map(\.id) == [.unusedLet], "\(result.diagnostics)")
  }

  /// Two facts that share a word: `[X, Y, Z]` pairs X with each of the others, but no one fact
  /// takes all three.
  static let overlapping = PolicySchema(
    facts: [
      FactDescriptor(
        name: "a", type: .enumeration(EnumType(name: "A", cases: ["X", "Y"])), isOptional: false,
        summary: ""),
      FactDescriptor(
        name: "b", type: .enumeration(EnumType(name: "B", cases: ["X", "Z"])), isOptional: false,
        summary: ""),
    ],
    refundChoices: TestSchema.refund, settableFields: [], vocabulary: TestSchema.words)

  @Test(arguments: [
    ("[X, Y]", nil), ("[Z, X]", nil), ("[X, Y, Z]", "X, Y and Z, which no one fact takes all of"),
    ("[Y, Z]", "Y and Z, which no one fact takes both of"),
  ])
  func anUnusedListsWordsMustAllBeOneFacts(list: String, mismatch: String?) {
    let result = PolicyLoader.load(
      SourceFile(
        path: "t.policy", text: "let l = \(list)\nrule \"r\" when a == X then refund DECLINE"),
      schema: Self.overlapping)
    let errors = result.diagnostics.filter { $0.id == .listTypeMismatch }.map(\.message)
    #expect(
      errors == (mismatch.map { ["the list 'l' holds \($0)"] } ?? []), "\(result.diagnostics)")
  }

  @Test func aMisspeltNamedListIsSuggested() {
    let result = TestSchema.load(
      "let coin_packs = [\"a\"]\nrule \"r\" when product.id in coin_pack then refund DECLINE")
    #expect(result.diagnostics.first?.hint == "did you mean 'coin_packs'?")
  }

  @Test(arguments: [
    ("2023-11-01", 1_698_796_800.0), ("2023-11-01T10:00:00Z", 1_698_832_800),
    ("2023-11-01T12:00:00+02:00", 1_698_832_800),
  ])
  func aDateLiteralIsAUTCTime(written: String, seconds: Double) throws {
    let condition = try TestSchema.checkedCondition("purchase.date >= \(written)")
    guard case .compare(_, _, let right) = condition.kind else {
      Issue.record("not a comparison: \(condition.kind)")
      return
    }
    #expect(right.constantValue == .timestamp(seconds))
  }

  @Test func aDatePlusADurationIsATime() throws {
    // baseFacts: purchase.date is 2023-11-04T22:13:20Z.
    let policy = try TestSchema.compile(
      """
      let launch = 2023-11-01
      rule "launch week" when purchase.date >= launch and purchase.date < launch + 7 days
        then refund GRANT_FULL
      otherwise refund DECLINE
      """)
    #expect(policy.evaluate(try TestSchema.baseFacts(), trace: false).rule == 0)
    let later = try TestSchema.baseFacts(["purchase.date": .timestamp(1_698_796_800 + 8 * 86_400)])
    #expect(policy.evaluate(later, trace: false).rule == nil)
  }

  @Test(arguments: ["2023-02-30", "2023-13-01", "2023-11-01T25:00:00Z", "2023-11-01T10:00:00"])
  func anImpossibleDateIsOneErrorOnTheWholeLiteral(written: String) throws {
    let result = TestSchema.load("rule \"r\" when purchase.date >= \(written) then refund DECLINE")
    #expect(result.diagnostics.map(\.id) == [.invalidDate], "\(result.renderedDiagnostics())")
    let span = try #require(result.diagnostics.first?.span)
    #expect(span.end - span.start == written.utf8.count)
  }

  @Test func theFormatterKeepsDatesAndNamedListsAsWritten() throws {
    let text = """
      let launch = 2026-11-01T10:00:00Z
      let packs = ["a", "b"]

      rule "r"
        when product.id not in packs and purchase.date >= launch
        then refund DECLINE
      """
    let formatted = try PolicyFormatter(vocabulary: TestSchema.words).format(
      TestSchema.source(text))
    #expect(formatted.contains("let launch = 2026-11-01T10:00:00Z"))
    #expect(formatted.contains("let packs = [\"a\", \"b\"]"))
    #expect(formatted.contains("product.id not in packs and purchase.date >= launch"))
  }

  @Test func anUnusedLetIsAWarning() {
    #expect(
      TestSchema.warningIDs("let unused = 3\nrule \"r\" when reason == LEGAL then refund DECLINE")
        == [.unusedLet])
    #expect(TestSchema.warningIDs(Self.packs).isEmpty)
  }

  @Test(arguments: [
    ("reason == LEGAL or reason == OTHER and usage.consumed < 10%", true),
    ("reason == OTHER and usage.consumed < 10% or reason == LEGAL", true),
    ("(reason == LEGAL or reason == OTHER) and usage.consumed < 10%", false),
    ("reason == LEGAL or (reason == OTHER and usage.consumed < 10%)", false),
    ("reason == LEGAL or reason == OTHER", false),
  ])
  func andAndOrMixedWithoutParenthesesIsAWarning(condition: String, warns: Bool) {
    let ids = TestSchema.warningIDs("rule \"r\" when \(condition) then refund GRANT_FULL")
    #expect(ids.contains(.mixedAndOr) == warns)
  }

  @Test(arguments: [
    ("delivery.status != DELIVERED", "DELIVERED", true),
    ("delivery.status == UNDELIVERED_OTHER", "DELIVERED", true),
    ("delivery.status in [UNDELIVERED_OTHER, UNDELIVERED_QUALITY_ISSUE]", "DELIVERED", true),
    ("delivery.status not in [DELIVERED]", "DELIVERED", true),
    // The form `reckon fmt` writes a negation in.
    ("not (delivery.status == DELIVERED)", "DELIVERED", true),
    ("not (delivery.status in [DELIVERED])", "DELIVERED", true),
    ("not (delivery.status not in [DELIVERED])", "DELIVERED", false),
    ("not (delivery.status == DELIVERED)", "UNDELIVERED_OTHER", false),
    ("delivery.status != DELIVERED", "UNDELIVERED_OTHER", false),
    ("delivery.status == DELIVERED", "DELIVERED", false),
    ("reason == LEGAL", "DELIVERED", false),
    ("delivery.status != DELIVERED or reason == LEGAL", "DELIVERED", false),
  ])
  func aSetTheConditionDeniesIsAWarning(condition: String, value: String, warns: Bool) {
    let ids = TestSchema.warningIDs(
      "rule \"r\" when \(condition) then refund GRANT_FULL, set deliveryStatus = \(value)")
    #expect(ids.contains(.setContradictsFacts) == warns, "\(ids)")
  }
}
