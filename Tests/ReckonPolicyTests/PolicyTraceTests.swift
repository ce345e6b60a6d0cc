import Testing

@testable import ReckonPolicy

struct PolicyTraceTests {
  static let text = """
    let used = usage.consumed
    rule "legal" when reason == LEGAL then refund GRANT_FULL
    rule "pricey" when purchase.price > 10 USD then refund DECLINE
    rule "heavy" when used >= 30% and not (delivery.status != DELIVERED) then refund DECLINE, set consumptionPercentage = used
    rule "never tried" when customer.consented then do not respond
    """

  @Test func theTraceRecordsEachAttemptWithItsResult() throws {
    let policy = try TestSchema.compile(Self.text)
    let decision = policy.evaluate(try TestSchema.baseFacts(), trace: true)
    #expect(decision.rule == 2)
    let trace = try #require(decision.trace)
    #expect(trace.attempts.map(\.rule) == [0, 1, 2])
    #expect(trace.attempts.map(\.result) == [false, nil, true])
  }

  @Test func conditionValuesMapBackToTheirSourceText() throws {
    let policy = try TestSchema.compile(Self.text)
    let trace = try #require(policy.evaluate(try TestSchema.baseFacts(), trace: true).trace)
    let source = policy.checked.source
    func rendered(_ attempt: PolicyTrace.RuleAttempt) -> [String] {
      attempt.conditions.map { condition in
        let text = source.text(of: policy.checked.nodeSpans[condition.node])
        return "\(text) = \(condition.value.map { "\($0)" } ?? "unknown")"
      }
    }
    #expect(rendered(trace.attempts[0]) == ["reason == LEGAL = boolean(false)"])
    #expect(rendered(trace.attempts[1]) == ["purchase.price > 10 USD = unknown"])
    #expect(
      rendered(trace.attempts[2]) == [
        "used = percent(50.0)",
        "used >= 30% = boolean(true)",
        "(delivery.status != DELIVERED) = boolean(false)",
        "not (delivery.status != DELIVERED) = boolean(true)",
        "used >= 30% and not (delivery.status != DELIVERED) = boolean(true)",
      ])
  }

  @Test func factsReadAreListedInFirstReadOrderWithTheMissingOnes() throws {
    let policy = try TestSchema.compile(Self.text)
    let trace = try #require(policy.evaluate(try TestSchema.baseFacts(), trace: true).trace)
    let names = trace.factsRead.map { TestSchema.schema.facts[$0].name }
    #expect(names == ["reason", "purchase.price", "usage.consumed", "delivery.status"])
    #expect(trace.missingFacts.map { TestSchema.schema.facts[$0].name } == ["purchase.price"])
  }

  @Test func setValuesAreRecordedAsActionValues() throws {
    let policy = try TestSchema.compile(Self.text)
    let trace = try #require(policy.evaluate(try TestSchema.baseFacts(), trace: true).trace)
    let source = policy.checked.source
    let actions = trace.actionValues.map {
      "\(source.text(of: policy.checked.nodeSpans[$0.node])) = \($0.value.map { "\($0)" } ?? "unknown")"
    }
    #expect(actions == ["used = percent(50.0)"])
  }

  @Test func setValuesReadingFactsAreRecordedToo() throws {
    let policy = try TestSchema.compile(
      "rule \"r\" when true then refund DECLINE, set consumptionPercentage = usage.consumed, set sampleContentProvided = purchase.price > 1 USD"
    )
    let trace = try #require(policy.evaluate(try TestSchema.baseFacts(), trace: true).trace)
    #expect(trace.actionValues.map(\.value) == [.percent(50), nil])
    #expect(
      trace.factsRead.map { TestSchema.schema.facts[$0].name } == [
        "usage.consumed", "purchase.price",
      ])
  }

  @Test func everyNodeIdHasASpanInsideTheSource() throws {
    let policy = try TestSchema.compile(Self.text)
    let size = policy.checked.source.bytes.count
    #expect(
      policy.checked.nodeSpans.allSatisfy { $0.start >= 0 && $0.end <= size && $0.start < $0.end })
  }

  @Test func evaluatingWithoutATraceDecidesTheSame() throws {
    let policy = try TestSchema.compile(Self.text)
    let facts = try TestSchema.baseFacts()
    let plain = policy.evaluate(facts)
    let traced = policy.evaluate(facts, trace: true)
    #expect(plain.rule == traced.rule)
    #expect(plain.actions == traced.actions)
  }
}

struct FactValuesTests {
  @Test func settingAnUnknownFactThrows() {
    var facts = FactValues(schema: TestSchema.schema)
    #expect(throws: FactValueError.unknownFact("usage.consumd")) {
      try facts.set("usage.consumd", to: .percent(1))
    }
  }

  @Test func settingAValueOfTheWrongTypeThrows() throws {
    var facts = FactValues(schema: TestSchema.schema)
    let error = #expect(throws: FactValueError.self) {
      try facts.set("usage.consumed", to: .number(40))
    }
    #expect(error == .wrongType(fact: "usage.consumed", expected: .percent, value: .number(40)))
    #expect(error?.description == "usage.consumed must be a percent, not 40")
  }

  @Test func anEnumOrdinalOutOfRangeIsTheWrongType() {
    var facts = FactValues(schema: TestSchema.schema)
    #expect(throws: FactValueError.self) {
      try facts.set("reason", to: .enumeration(99))
    }
  }

  @Test func settingNilMakesAFactMissing() throws {
    var facts = try TestSchema.baseFacts()
    #expect(facts.has("usage.consumed"))
    try facts.set("usage.consumed", to: nil)
    #expect(!facts.has("usage.consumed"))
    #expect(facts["usage.consumed"] == nil)
    #expect(facts["no.such.fact"] == nil)
    #expect(facts[999] == nil)
  }
}
