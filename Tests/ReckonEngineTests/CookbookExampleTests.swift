import Foundation
import ReckonEngine
import ReckonFacts
import ReckonPolicy
import Testing

/// Every policy the cookbook shows checks without an error against the standard facts: a product
/// owner copies them as they are.
struct CookbookExampleTests {
  static func policyBlocks() throws -> [String] {
    let text = try String(contentsOfFile: Repository.path("docs/cookbook.md"), encoding: .utf8)
    let parts = text.components(separatedBy: "```")
    // Odd parts are inside fences; a fence with a language tag (json, sh) is not a policy.
    return stride(from: 1, to: parts.count, by: 2).map { parts[$0] }.filter {
      let firstWord = $0.split(whereSeparator: \.isWhitespace).first ?? ""
      // Tests files (`test`, `given`) are shown too; they are not policies.
      return $0.hasPrefix("\n") && ($0.contains("rule \"") || $0.contains("otherwise"))
        && firstWord != "test" && firstWord != "given"
    }
  }

  /// The standard facts and the custom facts the cookbook declares for its examples.
  static let schema = FactSchema(customFacts: [
    FactDescriptor(
      name: "custom.coins_spent", type: .number, isOptional: true, summary: "Coins spent.")
  ])

  @Test func everyPolicyInTheCookbookChecksWithoutErrors() throws {
    let blocks = try Self.policyBlocks()
    #expect(blocks.count >= 8)
    for block in blocks {
      let loaded = PolicyLoader.load(
        SourceFile(path: "cookbook.policy", text: block), schema: Self.schema.policySchema)
      #expect(
        !loaded.hasErrors,
        "\(block)\n\(loaded.renderedDiagnostics())"
      )
    }
  }

  /// The coin-pack example prorates by the share of the pack's coins spent.
  @Test(
    arguments: [(3, "GRANT_FULL", nil), (500, "DECLINE", nil), (125, "GRANT_PRORATED", 25_000)]
      as [(Int, String, Int?)])
  func theCoinPackExampleProratesByCoinsSpent(spent: Int, preference: String, percentage: Int?)
    throws
  {
    let block = try #require(try Self.policyBlocks().first { $0.contains("coins_spent") })
    let loaded = PolicyLoader.load(
      SourceFile(path: "coins.policy", text: block), schema: Self.schema.policySchema)
    let policy = try #require(loaded.policy, "\(loaded.renderedDiagnostics())")
    #expect(loaded.diagnostics.isEmpty, "\(loaded.renderedDiagnostics())")
    let scenario = Scenario().with("custom.coins_spent", String(spent))
    let decision = Decider(policy: policy, schema: Self.schema).decide(
      scenario.request, facts: try scenario.gathered(schema: Self.schema))
    #expect(decision.body?.refundPreference?.rawValue == preference, "\(decision.action)")
    if let percentage { #expect(decision.body?.consumptionPercentage == percentage) }
  }
}
