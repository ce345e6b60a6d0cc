import Testing

@testable import ReckonPolicy

struct CheckerNameTests {
  struct NameCase: CustomTestStringConvertible, Sendable {
    let label: String
    let policy: String
    let id: DiagnosticID
    let message: String
    let hint: String?
    var testDescription: String { label }
  }

  static let cases: [NameCase] = [
    NameCase(
      label: "unknown fact", policy: "rule \"r\" when usage.consumd > 0% then refund DECLINE",
      id: .unknownFact,
      message: "unknown fact 'usage.consumd'", hint: "did you mean 'usage.consumed'?"),
    NameCase(
      label: "unknown custom fact",
      policy: "rule \"r\" when custom.vip_level_zz == 3 then refund DECLINE",
      id: .unknownFact, message: "unknown fact 'custom.vip_level_zz'",
      hint:
        "declare it under customFacts of a fact source in reckon.json; reckon check and reckon test know it with --config reckon.json"
    ),
    NameCase(
      label: "unknown name",
      policy: "let used = usage.consumed\nrule \"r\" when usd > 0% then refund DECLINE",
      id: .unknownName, message: "unknown name 'usd'", hint: "did you mean 'used'?"),
    NameCase(
      label: "bare enum value", policy: "rule \"r\" when DELIVERED then refund DECLINE",
      id: .bareEnumValue,
      message: "'DELIVERED' is a value, but nothing here says what it is a value of",
      hint: "compare it with a fact, as in delivery.status == DELIVERED"),
    NameCase(
      label: "bare value of another fact", policy: "rule \"r\" when LEGAL then refund DECLINE",
      id: .bareEnumValue,
      message: "'LEGAL' is a value, but nothing here says what it is a value of",
      hint: "compare it with a fact, as in reason == LEGAL"),
    NameCase(
      label: "unknown enum value",
      policy: "rule \"r\" when delivery.status != DELIVERD then refund DECLINE",
      id: .unknownEnumValue, message: "unknown value 'DELIVERD' for delivery.status",
      hint: "did you mean 'DELIVERED'?"),
    NameCase(
      label: "unknown enum value on the left",
      policy: "rule \"r\" when DELIVERD == delivery.status then refund DECLINE",
      id: .unknownEnumValue, message: "unknown value 'DELIVERD' for delivery.status",
      hint: "did you mean 'DELIVERED'?"),
    NameCase(
      label: "unknown enum value in a list",
      policy: "rule \"r\" when reason in [LEGAL, LEGL] then refund DECLINE",
      id: .unknownEnumValue, message: "unknown value 'LEGL' for reason",
      hint: "did you mean 'LEGAL'?"),
    NameCase(
      label: "a value whose near miss means the opposite",
      policy: "rule \"r\" when delivery.status == UNDELIVERED then refund GRANT_FULL",
      id: .unknownEnumValue, message: "unknown value 'UNDELIVERED' for delivery.status",
      hint: "expected one of DELIVERED, UNDELIVERED_QUALITY_ISSUE, UNDELIVERED_OTHER"),
    NameCase(
      label: "unknown enum value without a near miss",
      policy: "rule \"r\" when reason == ZZZZZZZZ then refund DECLINE",
      id: .unknownEnumValue, message: "unknown value 'ZZZZZZZZ' for reason",
      hint: "expected one of UNINTENDED_PURCHASE, FULFILLMENT_ISSUE, LEGAL, OTHER"),
    NameCase(
      label: "unknown set value", policy: "rule \"r\" when true then set deliveryStatus = DELIVERD",
      id: .unknownEnumValue,
      message: "unknown value 'DELIVERD' for deliveryStatus", hint: "did you mean 'DELIVERED'?"),
    NameCase(
      label: "unknown refund preference", policy: "rule \"r\" when true then refund GRANT_FUL",
      id: .unknownEnumValue,
      message: "unknown refund preference 'GRANT_FUL'", hint: "did you mean 'GRANT_FULL'?"),
    NameCase(
      label: "unknown field", policy: "rule \"r\" when true then set deliveryStatu = DELIVERED",
      id: .unknownField,
      message: "'deliveryStatu' is not a body field a rule can set",
      hint: "did you mean 'deliveryStatus'?"),
    NameCase(
      label: "unknown function", policy: "rule \"r\" when mim(1, 2) > 0 then refund DECLINE",
      id: .unknownFunction,
      message: "unknown function 'mim'", hint: "did you mean 'min'?"),
    NameCase(
      label: "let shadowing a fact root", policy: "let usage = 1", id: .letShadowsFact,
      message: "'usage' is already the name of facts, as in usage.consumed",
      hint: "use another name"),
    NameCase(
      label: "let shadowing a plain fact", policy: "let now = 1", id: .letShadowsFact,
      message: "'now' is already the name of a fact", hint: "use another name"),
    NameCase(
      label: "let named like an enumeration value",
      policy: "let LEGAL = 1\nrule \"r\" when reason == LEGAL then refund DECLINE",
      id: .letShadowsValue,
      message: "'LEGAL' is a value of reason, which a let of this name would hide",
      hint: "use another name, such as 'legal'"),
    NameCase(
      label: "let named like a value used in set",
      policy: "let DELIVERED = true\nrule \"r\" when true then set deliveryStatus = DELIVERED",
      id: .letShadowsValue,
      message: "'DELIVERED' is a value of delivery.status, which a let of this name would hide",
      hint: "use another name, such as 'delivered'"),
    NameCase(
      label: "duplicate let", policy: "let a = 1\nlet a = 2", id: .duplicateLet,
      message: "'a' is already defined on line 1", hint: "use another name"),
    NameCase(
      label: "use before definition", policy: "let a = b + 1\nlet b = 2",
      id: .letUsedBeforeDefinition,
      message: "'b' is used before it is defined on line 2",
      hint: "move the 'let' above its first use"),
    NameCase(
      label: "rule before its let", policy: "rule \"r\" when b > 1 then refund DECLINE\nlet b = 2",
      id: .letUsedBeforeDefinition,
      message: "'b' is used before it is defined on line 2",
      hint: "move the 'let' above its first use"),
    NameCase(
      label: "duplicate rule name",
      policy:
        "rule \"r\" when true then refund DECLINE\nrule \"r\" when false then refund GRANT_FULL",
      id: .duplicateRuleName, message: "another rule is already called 'r' (line 1)",
      hint: "give each rule its own name, so decisions say which one decided"),
  ]

  /// A third rule of the same name is told where the name was first used, not about the copy
  /// before it.
  @Test func everyDuplicateRuleNameCitesTheFirstDefinition() {
    let result = TestSchema.load(
      """
      rule "r" when reason == LEGAL then refund DECLINE
      rule "r" when reason == OTHER then refund GRANT_FULL
      rule "r" when reason == FULFILLMENT_ISSUE then refund GRANT_FULL
      """)
    let errors = result.diagnostics.filter { $0.id == .duplicateRuleName }
    #expect(
      errors.map(\.message)
        == Array(
          repeating: "another rule is already called 'r' (line 1)", count: 2))
  }

  @Test(
    "a rule without a name, or named like the otherwise clause, is refused at its name",
    arguments: ["\"\"", "\"  \"", "\"otherwise\"", "\"Otherwise \""])
  func ruleNameIsRefused(_ name: String) throws {
    let policy = """
      rule \(name) when reason == LEGAL then refund DECLINE
      rule \(name) when reason == OTHER then refund GRANT_FULL
      """
    let result = TestSchema.load(policy)
    #expect(result.policy == nil)
    #expect(result.diagnostics.map(\.id) == [.invalidRuleName, .invalidRuleName])
    let first = try #require(result.diagnostics.first)
    #expect(result.source.text(of: first.span) == name)
  }

  @Test("names are resolved or reported with a suggestion", arguments: cases)
  func unresolvedName(_ testCase: NameCase) throws {
    let result = TestSchema.load(testCase.policy)
    let errors = result.diagnostics.filter(\.isError)
    let error = try #require(errors.first)
    #expect(errors.count == 1, "\(result.renderedDiagnostics())")
    #expect(error.id == testCase.id)
    #expect(error.message == testCase.message)
    #expect(error.hint == testCase.hint)
    #expect(result.policy == nil)
  }

  @Test func aFailedLetDoesNotCascadeIntoItsUses() {
    let result = TestSchema.load(
      "let a = usage.consumd\nrule \"r\" when a > 3 and a then refund DECLINE")
    #expect(result.diagnostics.map(\.id) == [.unknownFact])
  }

  @Test(arguments: [
    "DELIVERED == delivery.status",
    "delivery.status == DELIVERED",
    "UNDELIVERED_OTHER != delivery.status",
    "delivery.status in [DELIVERED, UNDELIVERED_OTHER]",
    "delivery.status not in [DELIVERED]",
  ])
  func enumValuesResolveFromEitherSide(_ condition: String) throws {
    let policy = try TestSchema.compile(
      "rule \"r\" when \(condition) then set deliveryStatus = UNDELIVERED_OTHER")
    #expect(policy.checked.rules.count == 1)
  }

  @Test func enumValuesResolveAgainstALet() throws {
    let policy = try TestSchema.compile(
      "let s = delivery.status\nrule \"r\" when s == DELIVERED then refund DECLINE")
    let facts = try TestSchema.baseFacts()
    #expect(policy.evaluate(facts).rule == 0)
  }

  @Test func oneRunReportsEveryNameProblem() {
    let result = TestSchema.load(
      """
      let a = 1
      let a = 2
      rule "x" when usage.consumd > 0% then refund GRANT_FUL
      rule "y" when delivery.status == DELIVERD then set deliveryStatu = DELIVERED
      """)
    #expect(
      result.diagnostics.map(\.id) == [
        .duplicateLet, .unknownFact, .unknownEnumValue, .unknownEnumValue, .unknownField,
      ])
  }
}
