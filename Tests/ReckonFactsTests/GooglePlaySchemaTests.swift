import ReckonFacts
import ReckonPolicy
import Testing

/// Google Play policies are written in the same language over Google's words and facts.
@Suite struct GooglePlaySchemaTests {
  func load(_ text: String, schema: FactSchema = .googlePlay) -> PolicyLoader.Result {
    PolicyLoader.load(SourceFile(path: "play.policy", text: text), schema: schema.policySchema)
  }

  @Test func aPolicyInGooglesWordsChecks() {
    let result = load(
      """
      policy "play"
      rule "friendly fraud"
        when reason is not missing and reason in [FRIENDLY_FRAUD, FRAUD]
        then refund DECLINE
      rule "barely used"
        when usage.consumed < 10% and delivery.status == DELIVERED
        then refund APPROVE, set consumptionPercentage = usage.consumed
      rule "support says"
        when customer.override is not missing
        then follow customer.override
      otherwise share data only
      """)
    #expect(result.policy != nil, "\(result.renderedDiagnostics())")
  }

  @Test(arguments: [
    ("otherwise refund GRANT_FULL", "GRANT_FULL"),
    (
      "rule \"r\"\n  when product.type == CONSUMABLE\n  then refund DECLINE\notherwise share data only",
      "product.type"
    ),
    ("otherwise refund APPROVE, set deliveryStatus = DELIVERED", "deliveryStatus"),
  ])
  func applesWordsAreNotGooglesAndSaySo(text: String, named: String) {
    let result = load("policy \"p\"\n" + text)
    #expect(result.policy == nil)
    #expect(result.renderedDiagnostics().contains(named))
  }

  /// A word only the other store has is named as that store's, with the way to check it in
  /// those words, rather than guessed at as a misspelling.
  @Test(arguments: [
    (FactSchema.standard, "otherwise refund APPROVE", "APPROVE is a Google Play word"),
    (
      .standard, "rule \"r\" when reason == FRIENDLY_FRAUD then refund DECLINE",
      "--store googlePlay"
    ),
    (.googlePlay, "otherwise refund GRANT_PRORATED", "GRANT_PRORATED is an App Store word"),
    (
      .googlePlay, "rule \"r\" when reason == LEGAL then refund DECLINE",
      "without --store googlePlay"
    ),
  ])
  func theOtherStoresWordIsNamedAsItsWord(schema: FactSchema, text: String, hint: String) {
    let result = load("policy \"p\"\n" + text, schema: schema)
    let error = result.diagnostics.first(where: \.isError)
    #expect(error?.id == .unknownEnumValue)
    #expect(error?.hint?.contains(hint) == true, "\(String(describing: error?.hint))")
  }

  @Test func aPolicyOfCommonWordsChecksForBothStores() {
    let text = """
      policy "both"
      rule "support says"
        when customer.override is not missing
        then follow customer.override
      rule "heavy use"
        when usage.consumed >= 80% and history.earlier_refunds == 0
        then share data only, hold for review
      otherwise share data only
      """
    #expect(load(text, schema: .standard).policy != nil)
    #expect(load(text, schema: .googlePlay).policy != nil)
  }

  @Test func customFactsCarryOverToTheOtherStore() {
    let apple = FactSchema(
      customFacts: [
        FactDescriptor(name: "custom.vip", type: .boolean, isOptional: true, summary: "")
      ])
    let play = apple.schema(for: .googlePlay)
    #expect(play.store == .googlePlay)
    #expect(play.entries.contains { $0.descriptor.name == "custom.vip" })
    #expect(play.entries.contains { $0.descriptor.name == "order.id" })
    #expect(!play.entries.contains { $0.descriptor.name == "product.type" })
    #expect(
      play.schema(for: .appStore).entries.map(\.descriptor) == apple.entries.map(\.descriptor))
  }
}
