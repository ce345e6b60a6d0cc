import ReckonEngine
import ReckonFacts
import ReckonPolicy
import Testing

@testable import ReckonTools

/// A subscription renewed last week was first bought months ago: `purchase.original_date` lets a
/// policy read that tenure, which `purchase.date` (the renewal) hides. A test that does not give
/// it describes a first purchase.
struct SubscriberTenureTests {
  static let policy = """
    rule "long-standing subscriber"
      when product.type == AUTO_RENEWABLE and purchase.original_date is not missing
        and now - purchase.original_date > 90 days
      then refund DECLINE
    otherwise share data only
    """

  @Test func aTestReadsTenureFromTheOriginalPurchaseAndDefaultsItToThePurchase() throws {
    let loaded = PolicyLoader.load(
      SourceFile(path: "tenure.policy", text: Self.policy),
      schema: FactSchema.standard.policySchema)
    #expect(loaded.diagnostics.isEmpty, "\(loaded.diagnostics)")
    let runner = PolicyTestRunner(policy: try #require(loaded.policy))
    let report = runner.run(
      SourceFile(
        path: "tenure.tests",
        text: """
          given product.type = AUTO_RENEWABLE, purchase.date = 5 days ago

          test "a renewal of a subscription bought 200 days ago"
            given purchase.original_date = 200 days ago
            expect refund DECLINE, rule "long-standing subscriber"

          test "a first purchase: the original is the purchase itself"
            given purchase.date = 100 days ago
            expect refund DECLINE, rule "long-standing subscriber"

          test "a renewal of a subscription bought 60 days ago"
            given purchase.original_date = 60 days ago
            expect share data only

          test "a renewal that does not say when the subscription began"
            given purchase.date = 200 days ago, purchase.original_date is missing
            expect share data only
          """))
    #expect(report.passed, "\(report.render(explainer: nil))")
    #expect(report.outcomes.count == 4)
  }
}
