import Foundation
import ReckonEngine
import ReckonFacts
import ReckonPolicy
import Testing

/// A decider finds where the body's facts are once, in its policy's schema; facts gathered in
/// another schema are read by that schema's own slots, and decide as they would in the policy's.
struct DeciderSchemaTests {
  static let scenarios: [Scenario] = [
    Scenario(),
    Scenario().with("customer.consented", "false"),
    Scenario().with("delivery.status", "UNDELIVERED_SERVER_OUTAGE"),
    Scenario().with("usage.consumed", nil),
    Scenario().with("usage.consumed", "95%"),
    Scenario().with("product.sample_offered", nil),
    Scenario().with("customer.override", "DECLINE"),
  ]

  /// The standard facts with one custom fact more: a schema alike, but not the policy's own.
  static let other = FactSchema(customFacts: [
    FactDescriptor(name: "custom.tier", type: .number, isOptional: true, summary: "A tier.")
  ])

  @Test(arguments: scenarios)
  func factsOfAnotherSchemaDecideAsFactsOfThePolicysOwn(_ scenario: Scenario) throws {
    let text = try String(
      contentsOfFile: Repository.path("policies/targeted.policy"), encoding: .utf8)
    let loaded = PolicyLoader.load(
      SourceFile(path: "targeted.policy", text: text), schema: FactSchema.standard.policySchema)
    let decider = Decider(policy: try #require(loaded.policy), schema: .standard)
    for trace in [false, true] {
      let own = decider.decide(scenario.request, facts: try scenario.gathered(), trace: trace)
      let alike = decider.decide(
        scenario.request, facts: try scenario.gathered(schema: Self.other), trace: trace)
      #expect(own.action == alike.action)
      #expect(own.reply == alike.reply)
      #expect(own.rule == alike.rule)
      #expect(own.fieldSources == alike.fieldSources)
      #expect(own.trace == alike.trace)
    }
  }

  @Test func aSchemaIsTheSameOnlyAsItselfAndItsCopies() {
    let schema = FactSchema.standard.policySchema
    let copy = schema
    #expect(schema.isSame(as: copy))
    #expect(!schema.isSame(as: FactSchema().policySchema))
    #expect(!schema.isSame(as: Self.other.policySchema))
  }
}
