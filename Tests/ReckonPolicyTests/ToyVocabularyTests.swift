import Testing

@testable import ReckonPolicy

/// The language over a vocabulary with no App Store word in it: a lending library that decides
/// returns. Parsing, checking, analysis, evaluation and formatting take every word from it.
struct ToyVocabularyTests {
  static let verdict = EnumType(name: "Verdict", cases: ["ACCEPT", "REJECT", "PARTIAL"])
  static let condition = EnumType(name: "Condition", cases: ["INTACT", "DAMAGED", "LOST"])
  static let kind = EnumType(name: "Kind", cases: ["BOOK", "MEMBERSHIP"])

  static let words = PolicyVocabulary(
    store: "Acme", choose: .init("approve", doing: "approves"), choiceNoun: "return verdict",
    replyWithoutChoice: .init("answer plainly", doing: "answers plainly"),
    withholdReply: .init("stay silent", doing: "stays silent"),
    holdForReview: .init("ask a person", doing: "asks a person"),
    examples: .init(
      grant: "ACCEPT", decline: "REJECT", percentFact: "item.read", optionalFact: "member.note",
      enumFact: "item.condition", settableField: "readShare"))

  static let schema = PolicySchema(
    facts: [
      FactDescriptor(
        name: "item.condition", type: .enumeration(condition), isOptional: false, summary: ""),
      FactDescriptor(name: "item.kind", type: .enumeration(kind), isOptional: false, summary: ""),
      FactDescriptor(name: "item.read", type: .percent, isOptional: false, summary: ""),
      FactDescriptor(name: "member.agreed", type: .boolean, isOptional: false, summary: ""),
      FactDescriptor(name: "member.note", type: .text, isOptional: true, summary: ""),
    ],
    refundChoices: verdict,
    settableFields: [FieldDescriptor(name: "readShare", type: .percent)],
    vocabulary: words,
    boundedChoice: BoundedChoice(
      choice: "PARTIAL", boundedFact: "item.read", overridingField: "readShare",
      categoryFact: "item.kind", exemptCategories: ["MEMBERSHIP"],
      requiredFact: "item.condition", requiredValue: "INTACT"),
    consentFact: "member.agreed")

  /// Words that belong to the App Store vocabulary, none of which the toy's messages may use.
  static let storeWords = [
    "Apple", "refund", "share data", "do not respond", "hold for review", "GRANT", "DECLINE",
    "consumption", "usage.", "delivery", "customer.",
  ]

  static let policy = """
    rule "lost" when item.condition == LOST then approve REJECT
    rule "damaged" when item.condition == DAMAGED then ask a person, approve REJECT
    rule "barely read" when item.read < 10% then approve ACCEPT
    rule "half read" when item.kind == BOOK and item.read > 5% and item.read < 60% then approve PARTIAL
    rule "refused" when not member.agreed then stay silent
    otherwise answer plainly
    """

  static func load(_ text: String) -> PolicyLoader.Result {
    PolicyLoader.load(SourceFile(path: "returns.policy", text: text), schema: schema)
  }

  static func facts(
    condition: String = "INTACT", kind: String = "BOOK", read: Double = 50, agreed: Bool = true
  ) throws -> FactValues {
    var facts = FactValues(schema: schema)
    try facts.set("item.condition", to: .enumeration(Self.condition.ordinal(of: condition)!))
    try facts.set("item.kind", to: .enumeration(Self.kind.ordinal(of: kind)!))
    try facts.set("item.read", to: .percent(read))
    try facts.set("member.agreed", to: .boolean(agreed))
    return facts
  }

  @Test func aPolicyInTheToyWordsLoadsWithoutAWord() {
    let result = Self.load(Self.policy)
    #expect(result.policy != nil)
    #expect(result.diagnostics.isEmpty, "\(result.renderedDiagnostics())")
  }

  @Test(
    arguments: [
      ("LOST", 50.0, [DecidedAction.choose(ordinal: 1, name: "REJECT")], 0 as Int?),
      ("DAMAGED", 50.0, [.holdForReview, .choose(ordinal: 1, name: "REJECT")], 1),
      ("INTACT", 5.0, [.choose(ordinal: 0, name: "ACCEPT")], 2),
      ("INTACT", 40.0, [.choose(ordinal: 2, name: "PARTIAL")], 3),
      ("INTACT", 90.0, [.replyWithoutChoice], nil),
    ])
  func theToyPolicyDecidesByItsFirstMatchingRule(
    condition: String, read: Double, actions: [DecidedAction], rule: Int?
  ) throws {
    let policy = try #require(Self.load(Self.policy).policy)
    let decision = policy.evaluate(try Self.facts(condition: condition, read: read))
    #expect(decision.actions == actions)
    #expect(decision.rule == rule)
  }

  @Test func theToyWithholdingPhraseWithholdsTheReply() throws {
    let policy = try #require(Self.load(Self.policy).policy)
    let decision = policy.evaluate(try Self.facts(read: 90, agreed: false))
    #expect(decision.actions == [.withholdReply])
    #expect(policy.ruleName(decision.rule) == "refused")
  }

  @Test func theStoresPhraseIsNotAnActionInTheToyWords() {
    let result = Self.load("rule \"r\" when item.read < 10% then refund ACCEPT\n")
    #expect(result.policy == nil)
    let rendered = result.renderedDiagnostics()
    #expect(rendered.contains("approve ACCEPT"), "\(rendered)")
    for word in Self.storeWords where word != "refund" {
      #expect(!rendered.contains(word), "\(word) in \(rendered)")
    }
  }

  @Test func anUnboundedPartialVerdictIsWarnedAboutInTheToysName() throws {
    let result = Self.load("rule \"any\" when item.kind == BOOK then approve PARTIAL\n")
    let warning = try #require(result.diagnostics.first { $0.id == .proratedWithoutUsageBound })
    let rendered = result.renderedDiagnostics()
    #expect(warning.message.contains("Acme"), "\(rendered)")
    for word in Self.storeWords {
      #expect(!rendered.contains(word), "\(word) in \(rendered)")
    }
  }

  @Test func aRuleThatAnswersOnlyWithoutAgreementIsWarnedAboutInTheToyWords() throws {
    let result = Self.load("rule \"r\" when not member.agreed then approve ACCEPT\n")
    let warning = try #require(result.diagnostics.first { $0.id == .answersWithoutConsent })
    #expect(warning.message.contains("member.agreed"))
    #expect(warning.hint?.contains("then stay silent") == true, "\(warning.hint ?? "")")
  }

  @Test func aFileThatNeverDecidesIsToldTheToysOtherwise() throws {
    let result = Self.load("# nothing yet\n")
    let error = try #require(result.diagnostics.first)
    #expect(error.id == .emptyPolicy)
    #expect(error.hint?.contains("otherwise answer plainly") == true)
  }

  @Test func theFormatterWritesTheToyPhrases() {
    let source = SourceFile(path: "returns.policy", text: Self.policy)
    let (syntax, diagnostics) = Parser.parse(source, vocabulary: Self.words)
    #expect(diagnostics.isEmpty)
    let formatted = PolicyFormatter(vocabulary: Self.words, width: 100).format(
      syntax, source: source)
    for phrase in ["approve REJECT", "ask a person", "stay silent", "otherwise answer plainly"] {
      #expect(formatted.contains(phrase), "\(phrase) in \(formatted)")
    }
    #expect(Self.load(formatted).diagnostics.isEmpty)
  }
}
