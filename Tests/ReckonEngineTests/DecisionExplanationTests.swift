import Foundation
import ReckonEngine
import ReckonFacts
import ReckonPolicy
import ReckonState
import Testing

/// Why an earlier rule did not match, under three-valued logic.
struct DecisionExplanationTests {
  /// A policy whose rule follows a fact and whose hold holds heavy use.
  static let followAndHold = """
    hold "heavy"
      when usage.consumed >= 80%
    rule "support"
      when customer.override is not missing
      then follow customer.override
    otherwise share data only
    """

  /// `text` loaded against the standard facts and its decision of `scenario`'s request, traced.
  static func decide(_ text: String, _ scenario: Scenario) throws -> (CompiledPolicy, Decision) {
    let loaded = PolicyLoader.load(
      SourceFile(path: "test.policy", text: text), schema: FactSchema.standard.policySchema)
    let policy = try #require(loaded.policy, "\(loaded.renderedDiagnostics())")
    let decision = Decider(policy: policy, schema: .standard).decide(
      scenario.request, facts: try scenario.gathered(), trace: true)
    return (policy, decision)
  }

  struct MissCase: CustomTestStringConvertible, Sendable {
    let condition: String
    let usage: String
    let failedPart: String
    let failedValue: String
    var testDescription: String { "\(condition) with usage \(usage)" }
  }

  static let cases: [MissCase] = [
    // unknown and false is false: the false part is the reason, not the missing fact.
    MissCase(
      condition: "customer.override == DECLINE and usage.consumed < 50%", usage: "100%",
      failedPart: "usage.consumed < 50%", failedValue: "false"),
    MissCase(
      condition: "usage.consumed < 50% and customer.override == DECLINE", usage: "100%",
      failedPart: "usage.consumed < 50%", failedValue: "false"),
    // unknown and true is unknown: only then is the missing fact the reason.
    MissCase(
      condition: "customer.override == DECLINE and usage.consumed < 50%", usage: "40%",
      failedPart: "customer.override == DECLINE", failedValue: "unknown"),
  ]

  @Test("a rule that did not match is explained by the part that made it false", arguments: cases)
  func missNamesThePartThatDecided(_ testCase: MissCase) throws {
    let text = """
      rule "override says decline"
        when \(testCase.condition)
        then refund DECLINE

      otherwise share data only
      """
    let (policy, decision) = try Self.decide(
      text, Scenario().with("usage.consumed", testCase.usage))
    let explanation = try #require(DecisionExplanation(decision, policy: policy))
    let failed = try #require(explanation.earlierRules.first?.failed)
    #expect(failed.text == testCase.failedPart)
    #expect(failed.value == testCase.failedValue)
  }

  /// Money in different currencies is unknown without any fact missing: the explanation says so
  /// instead of blaming a missing fact.
  @Test func anUnknownFromDifferentCurrenciesSaysSo() throws {
    let text = """
      let pricey = purchase.price is not missing and purchase.price > 2 EUR
      rule "pricey"
        when pricey
        then refund DECLINE
      otherwise share data only
      """
    let (policy, decision) = try Self.decide(text, Scenario())
    let explainer = DecisionExplainer(policy: policy)
    let rendered = explainer.render(decision, explain: true)
    let reason = "4.99 USD cannot be compared with 2 EUR: different currencies"
    #expect(rendered.contains("\"pricey\" (line 2): pricey is unknown (\(reason))"), "\(rendered)")
    #expect(!rendered.contains("a fact it needs is missing"), "\(rendered)")
  }

  /// A division by zero is unknown without any fact missing: the explanation names the division,
  /// the line it is written on (here in a let) and the divisor's value, and says no fact is missing.
  /// A fact's value is anyone's text: one that would reorder the line (a right-to-left
  /// override) or hide a character is shown escaped, as control characters are.
  @Test func aFactValueThatWouldChangeHowTheLineShowsIsShownEscaped() throws {
    let schema = FactSchema(customFacts: [
      FactDescriptor(name: "custom.note", type: .text, isOptional: true, summary: "A note.")
    ])
    let text = """
      rule "noted"
        when custom.note is not missing and custom.note == "vip"
        then refund DECLINE
      otherwise share data only
      """
    let loaded = PolicyLoader.load(
      SourceFile(path: "test.policy", text: text), schema: schema.policySchema)
    let policy = try #require(loaded.policy, "\(loaded.renderedDiagnostics())")
    let scenario = Scenario().with("custom.note", "pi\u{202E}v\u{200B}\u{1B}[2J\nRule forged")
    let decision = Decider(policy: policy, schema: schema).decide(
      scenario.request, facts: try scenario.gathered(schema: schema), trace: true)
    let rendered = DecisionExplainer(policy: policy).render(decision, explain: true)
    #expect(rendered.contains("pi\\u{202E}v\\u{200B}\\u{1B}[2J"), "\(rendered)")
    #expect(!rendered.unicodeScalars.contains { $0 == "\u{202E}" || $0 == "\u{1B}" })
    // A line break stays inside its line, in the conditions and the facts read alike.
    #expect(
      !rendered.split(separator: "\n").contains { $0.hasPrefix("Rule forged") }, "\(rendered)")
  }

  @Test func anUnknownFromADivisionByZeroSaysWhichDivisionAndWhere() throws {
    let text = """
      let ratio = customer.lifetime_refunded / customer.lifetime_spent
      rule "refund heavy"
        when ratio > 0.5
        then refund DECLINE
      otherwise share data only
      """
    let (policy, decision) = try Self.decide(
      text,
      Scenario().with("customer.lifetime_spent", "0 USD").with(
        "customer.lifetime_refunded", "0 USD"))
    let rendered = DecisionExplainer(policy: policy).render(decision, explain: true)
    let reason =
      "'customer.lifetime_refunded / customer.lifetime_spent' on line 1 divides by zero: "
      + "customer.lifetime_spent is 0.00 USD"
    #expect(
      rendered.contains("\"refund heavy\" (line 2): ratio > 0.5 is unknown (\(reason))"),
      "\(rendered)")
    #expect(!rendered.contains("a fact it needs is missing"), "\(rendered)")
    #expect(rendered.contains("Missing facts: none"), "\(rendered)")
  }

  @Test func aMissingFactTheBodyNeedsIsListedThoughNoRuleReadIt() throws {
    let text = "rule \"always\"\n  when true\n  then refund GRANT_FULL\n"
    let (policy, decision) = try Self.decide(text, Scenario().with("customer.consented", nil))
    let rendered = DecisionExplainer(policy: policy).render(decision, explain: true)
    #expect(
      rendered.contains("Missing facts: customer.consented (the body needs it)"), "\(rendered)")
    let consenting = Decider(policy: policy, schema: .standard).decide(
      Scenario().request, facts: try Scenario().gathered(), trace: true)
    #expect(
      DecisionExplainer(policy: policy).render(consenting, explain: true).contains(
        "Missing facts: none"))
  }

  /// A condition that is a `let` says what the let stands for and the facts it read, through
  /// other lets, each once: `heavy is true` alone hides the usage that made it so.
  @Test func aLetConditionShowsWhatItStandsForAndTheFactsItRead() throws {
    let text = """
      let used = usage.consumed
      let heavy = used >= 80% and reason != LEGAL
      let heavyTwice = heavy # "a comment"
        and used > 0%
      rule "heavy use"
        when heavyTwice
        then refund DECLINE
      otherwise share data only
      """
    let scenario = Scenario().with("usage.consumed", "90%")
    let (policy, decision) = try Self.decide(text, scenario)
    let explanation = try #require(DecisionExplanation(decision, policy: policy))
    let condition = try #require(explanation.because.first)
    #expect(condition.text == "heavyTwice")
    #expect(
      condition.detail
        == "heavyTwice = heavy and used > 0%; usage.consumed is 90%, reason is \(try Self.reason(scenario))"
    )
  }

  private static func reason(_ scenario: Scenario) throws -> String {
    guard case .enumeration(let ordinal)? = try scenario.gathered().values["reason"] else {
      return "missing"
    }
    return FactSchema.reason.cases[ordinal]
  }
}

/// The explanation the state database keeps reads back as it was made, so `reckon queue show`
/// can say why a held entry was held.
struct StoredExplanationTests {
  @Test func aStoredDecisionsExplanationReadsBackAsTheSameSentences() throws {
    let text = """
      rule "override says decline"
        when customer.override == DECLINE
        then refund DECLINE

      rule "mostly used"
        when usage.consumed >= 50% and product.type == CONSUMABLE
        then refund DECLINE

      otherwise share data only
      """
    let (policy, decision) = try DecisionExplanationTests.decide(
      text, Scenario().with("usage.consumed", "80%"))
    let made = try #require(DecisionExplanation(decision, policy: policy))
    let record = DecisionRecord(decision: decision, policy: policy, policyText: text)
    let stored = try #require(record.explanation)
    #expect(DecisionExplainer.whyLines(stored) == DecisionExplainer.whyLines(made))
    #expect(stored.decidedBy == "mostly used" && stored.because.count == 2)
    #expect(stored.earlierRules.map(\.rule) == ["override says decline"])
  }

  @Test func aDecisionStoredWithoutAnExplanationHasNone() throws {
    let text = "otherwise share data only\n"
    let (policy, decision) = try DecisionExplanationTests.decide(text, Scenario())
    var record = DecisionRecord(decision: decision, policy: policy, policyText: text)
    #expect(record.explanation?.decidedBy == "otherwise")
    record.explanationJSON = nil
    #expect(record.explanation == nil)
    record.explanationJSON = Data("not json".utf8)
    #expect(record.explanation == nil)
  }
}

extension DecisionExplanationTests {
  /// A duration read in seconds (as a database gives it) is explained with its size in days
  /// too: `15898814 seconds` alone is not a length a reader takes in.
  @Test func aDurationInSecondsIsExplainedWithItsSizeInDays() throws {
    let text = """
      rule "new account"
        when customer.account_age < 30 days
        then refund DECLINE
      otherwise share data only
      """
    let (policy, decision) = try Self.decide(
      text, Scenario().with("customer.account_age", "15898814 seconds"))
    let rendered = DecisionExplainer(policy: policy).render(decision, explain: true)
    #expect(
      rendered.contains("customer.account_age is 15898814 seconds (about 184 days)"),
      "\(rendered)")
  }
}

/// The explanation's sentences read as a person would say them.
struct ExplanationWordingTests {
  @Test func aMissingTestSaysWhatWasFound() throws {
    let (policy, decision) = try DecisionExplanationTests.decide(
      """
      rule "support" when customer.override is not missing then refund GRANT_FULL
      otherwise share data only
      """, Scenario())
    let rendered = DecisionExplainer(policy: policy).render(decision, explain: true)
    #expect(rendered.contains("\"support\" (line 1): customer.override is missing"), "\(rendered)")
    #expect(!rendered.contains("is not missing is false"))
    #expect(rendered.contains("refundPreference: left out: otherwise shares data only"))
  }

  @Test func aWorkedOutSideShowsItsValue() throws {
    let (policy, decision) = try DecisionExplanationTests.decide(
      """
      rule "recent" when now - purchase.date >= 1 days then refund DECLINE
      otherwise share data only
      """, Scenario())
    let rendered = DecisionExplainer(policy: policy).render(decision, explain: true)
    #expect(rendered.contains("(now - purchase.date is 1 day"), "\(rendered)")
  }

  @Test func aDecisionThatSendsNothingListsNoBodyFields() throws {
    let (policy, decision) = try DecisionExplanationTests.decide(
      "otherwise refund DECLINE", Scenario().with("customer.consented", "false"))
    let rendered = DecisionExplainer(policy: policy).render(decision, explain: true)
    #expect(!rendered.contains("Body fields:"), "\(rendered)")
    #expect(!rendered.contains("customerConsented: left out"), "\(rendered)")
  }

  /// A rule that answers by `follow` names the fact and the value it followed, and a hold that
  /// held the decision names itself with the parts of its condition, in the text and the data.
  @Test func aFollowAndAHoldSayWhatTheyRead() throws {
    let text = DecisionExplanationTests.followAndHold
    let (policy, decision) = try DecisionExplanationTests.decide(
      text, Scenario().with("usage.consumed", "90%").with("customer.override", "DECLINE"))
    let explanation = try #require(DecisionExplanation(decision, policy: policy))
    #expect(explanation.followed?.fact == "customer.override")
    #expect(explanation.followed?.value == "DECLINE")
    #expect(explanation.hold?.name == "heavy")
    #expect(explanation.hold?.line == 1)
    #expect(explanation.hold?.because.map(\.text) == ["usage.consumed >= 80%"])
    let rendered = DecisionExplainer(policy: policy).render(decision, explain: true)
    #expect(rendered.contains("  Its answer follows customer.override, which is DECLINE.\n"))
    #expect(
      rendered.contains(
        "  Hold \"heavy\" (line 1) held it for review, because:\n"
          + "    - usage.consumed >= 80% is true (usage.consumed is 90%)\n"), "\(rendered)")
    // A hold that does not hold, and a rule that does not follow, add nothing.
    let (light, undecided) = try DecisionExplanationTests.decide(
      text, Scenario().with("usage.consumed", "10%"))
    let plain = try #require(DecisionExplanation(undecided, policy: light))
    #expect(plain.followed == nil)
    #expect(plain.hold == nil)
    #expect(!DecisionExplainer(policy: light).render(undecided, explain: true).contains("Hold"))
  }
}
