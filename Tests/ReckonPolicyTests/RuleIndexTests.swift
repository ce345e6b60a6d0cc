import ReckonTestSupport
import Testing

@testable import ReckonPolicy

/// A policy whose rules test one fact for equality (a catalogue of SKUs) decides through an
/// index, and decides exactly as trying every rule in turn does (the traced evaluation).
struct RuleIndexTests {
  /// `count` rules, one per product id, some with a second condition, a few reason rules
  /// between them that test no product, and a list rule for several ids at once.
  static func catalogue(_ count: Int) -> String {
    var lines: [String] = []
    for sku in 0..<count {
      if sku % 50 == 25 {
        lines.append("rule \"legal \(sku)\" when reason == LEGAL then refund GRANT_FULL")
      }
      let extra = sku % 3 == 0 ? " and usage.consumed >= 50%" : ""
      lines.append(
        "rule \"sku \(sku)\" when product.id == \"com.example.sku\(sku)\"\(extra) then refund DECLINE"
      )
    }
    lines.append(
      "rule \"bundles\" when product.id in [\"com.example.sku1\", \"com.example.bundle\"] then refund GRANT_FULL"
    )
    lines.append("otherwise share data only")
    return lines.joined(separator: "\n")
  }

  @Test func aCatalogueIsIndexedOnTheFactItsRulesTest() throws {
    let policy = try TestSchema.compile(Self.catalogue(100))
    let index = try #require(policy.plain.index)
    #expect(policy.schema.facts[index.slot].name == "product.id")
    #expect(policy.traced.index == nil)
    #expect(index.candidates(for: .text("com.example.sku7")).count == 1 + index.rest.count)
  }

  @Test func aSmallPolicyIsNotIndexed() throws {
    #expect(try TestSchema.compile(Self.catalogue(5)).plain.index == nil)
  }

  @Test func theIndexDecidesAsTryingEveryRuleDoes() throws {
    let policy = try TestSchema.compile(Self.catalogue(200))
    var random = SplitMix64(seed: 7)
    let ids = (0..<220).map { "com.example.sku\($0)" } + ["com.example.bundle", "other"]
    let reasons = TestSchema.reason.cases
    for _ in 0..<2_000 {
      var overrides: [String: Value?] = [
        "reason": .enumeration(Int(random.next() % UInt64(reasons.count))),
        "usage.consumed": .percent(Double(random.next() % 101)),
      ]
      let id = ids[Int(random.next() % UInt64(ids.count))]
      overrides["product.id"] = random.next() % 20 == 0 ? .some(nil) : .text(id)
      let facts = try TestSchema.baseFacts(overrides)
      let indexed = policy.evaluate(facts, trace: false)
      let tried = policy.evaluate(facts, trace: true)
      #expect(indexed.rule == tried.rule, "\(id)")
      #expect(indexed.actions == tried.actions)
    }
  }
}
