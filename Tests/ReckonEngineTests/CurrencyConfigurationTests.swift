import Foundation
import ReckonEngine
import ReckonFacts
import ReckonPolicy
import ReckonSupport
import ReckonTestSupport
import Testing

/// `currencies` in reckon.json gives each currency's worth in a common unit, so a policy's money
/// in one currency compares with a purchase's in another.
struct CurrencyConfigurationTests {
  static func load(_ currencies: String) throws(ConfigurationError) -> ReckonConfiguration {
    let text = """
      {"apps": [{"bundleId": "com.example", "environment": "Sandbox", "policy": "a.policy"}],
       "factSources": []\(currencies.isEmpty ? "" : ", \"currencies\": \(currencies)")}
      """
    let root = (try? JSONValue.parse(Data(text.utf8)).objectValue) ?? [:]
    return try ReckonConfiguration(
      ConfigurationReader(root, path: ""), baseDirectory: TestScratch.folder.path)
  }

  @Test func ratesReachThePolicySchema() throws {
    let configuration = try Self.load(#"{"USD": 1, "EUR": 1.08}"#)
    #expect(configuration.currencies.perUnit == ["USD": 1, "EUR": 1.08])
    let schema = try FactSourceSetup.schema(
      configuration.factSources, currencies: configuration.currencies)
    #expect(schema.policySchema.currencyRates.connects("EUR", "USD"))
    #expect(try Self.load("").currencies.isEmpty)
  }

  @Test(arguments: [
    (#"{"USE": 1}"#, "currencies.USE", "did you mean"),
    (#"{"EUR": 0}"#, "currencies.EUR", "positive"),
    (#"{"EUR": "1.08"}"#, "currencies.EUR", "number"), (#"[1]"#, "currencies", "object"),
  ])
  func aRateThatCannotWorkIsRefusedNamingItsKey(_ currencies: String, _ key: String, _ says: String)
  {
    let error = #expect(throws: ConfigurationError.self) { try Self.load(currencies) }
    #expect(error?.key == key, "\(String(describing: error))")
    #expect(error?.description.contains(says) == true, "\(String(describing: error))")
  }

  /// The standard facts with a dollar and a euro of 1.2 dollars.
  static let schema = FactSchema(currencyRates: CurrencyRates(["USD": 1, "EUR": 1.2]))

  /// `text`, which must load against `schema` without a diagnostic.
  static func policy(_ text: String) throws -> CompiledPolicy {
    let loaded = PolicyLoader.load(
      SourceFile(path: "p.policy", text: text), schema: schema.policySchema)
    #expect(loaded.diagnostics.isEmpty, "\(loaded.renderedDiagnostics())")
    return try #require(loaded.policy)
  }

  @Test func aPurchaseInEurosIsComparedWithAThresholdInDollars() throws {
    let policy = try Self.policy(
      """
      rule "expensive"
        when purchase.price is not missing and purchase.price > 50 USD
        then refund DECLINE
      otherwise refund GRANT_FULL
      """)
    var scenario = Scenario()
    scenario.facts["customer.consented"] = "true"
    let gathered = try scenario.gathered(schema: Self.schema)
    // The scenario's purchase is 4.99 USD; the one here 45 EUR, 54 USD at the rates.
    var facts = gathered.values
    try facts.set("purchase.price", to: .money(45_000, currency: "EUR"))
    #expect(policy.evaluate(facts).rule == 0)
  }

  @Test func theExplanationShowsTheAmountInBothCurrencies() throws {
    let policy = try Self.policy(
      """
      rule "big spender"
        when customer.lifetime_spent is not missing and customer.lifetime_spent > 50 USD
        then refund GRANT_FULL
      otherwise refund DECLINE
      """)
    let schema = Self.schema
    let scenario = Scenario().with("customer.lifetime_spent", "45 EUR")
    let decision = Decider(policy: policy, schema: schema).decide(
      scenario.request, facts: try scenario.gathered(schema: schema), trace: true)
    #expect(decision.rule == "big spender")
    let rendered = DecisionExplainer(policy: policy).render(decision, explain: true)
    #expect(
      rendered.contains("customer.lifetime_spent is 45.00 EUR (54.00 USD at the configured rates)"),
      "\(rendered)")
  }
}
