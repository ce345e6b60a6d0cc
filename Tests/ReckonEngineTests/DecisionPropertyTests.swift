import Foundation
import ReckonAppStore
import ReckonEngine
import ReckonFacts
import ReckonPolicy
import ReckonTestSupport
import Testing

/// For random requests and facts and every ready-made policy: no body that breaks an Apple rule is
/// ever sent, and nothing is sent without consent.
struct DecisionPropertyTests {
  static let policyPaths = (try? PolicyFiles.expand([Repository.path("policies")])) ?? []

  @Test func thereAreReadyMadePolicies() {
    #expect(!Self.policyPaths.isEmpty)
  }

  @Test(arguments: policyPaths)
  func noRespondingDecisionBreaksAnAppleRuleOrLacksConsent(path: String) throws {
    let loaded = try PolicyFiles.load(path)
    let policy = try #require(loaded.policy, "\(loaded.renderedDiagnostics())")
    let decider = Decider(policy: policy, schema: .standard)
    var random = SeededRandom(seed: 0x5EED)
    for _ in 0..<2_000 {
      let scenario = Self.randomScenario(&random)
      let decision = decider.decide(
        scenario.request, facts: try scenario.gathered(), trace: Bool.random(using: &random))
      guard decision.action == .respond || decision.action == .hold else { continue }
      let body = try #require(decision.body)
      let violations = ConsumptionRequestValidator.validate(
        body, context: ConsumptionValidationContext(transaction: scenario.request.transaction))
      #expect(violations.isEmpty, "\(path): \(body) breaks \(violations)")
      #expect(body.customerConsented)
      #expect(
        scenario.facts["customer.consented"] == .some("true"), "\(path) answered without consent")
    }
  }

  static func randomScenario(_ random: inout SeededRandom) -> Scenario {
    var scenario = Scenario()
    scenario.productType = ProductType.allCases.randomElement(using: &random)!
    scenario.reason = ConsumptionRequestReason.allCases.randomElement(using: &random)!
    scenario.ownership = Int.random(in: 0..<20, using: &random) == 0 ? .familyShared : .purchased
    scenario.receivedAt = scenario.purchasedAt.addingTimeInterval(
      Double.random(in: 0...(400 * 86_400), using: &random))
    func maybe(_ value: String) -> String? {
      Int.random(in: 0..<8, using: &random) == 0 ? nil : value
    }
    scenario.facts = [
      "customer.consented": maybe(["true", "false"].randomElement(using: &random)!),
      "delivery.status": maybe(FactSchema.deliveryStatus.cases.randomElement(using: &random)!),
      "product.sample_offered": maybe(Bool.random(using: &random) ? "true" : "false"),
      "usage.consumed": maybe(
        ["0%", "100%", "50%", "0.001%", "99.999%", "\(Int.random(in: 0...100, using: &random))%"]
          .randomElement(using: &random)!),
      "customer.override": Int.random(in: 0..<3, using: &random) == 0
        ? FactSchema.customerOverride.cases.randomElement(using: &random)! : nil,
      "customer.refunds_last_90_days": maybe(String(Int.random(in: 0...5, using: &random))),
      "customer.account_age": maybe("\(Int.random(in: 0...2_000, using: &random)) days"),
      "customer.lifetime_spent": maybe("\(Int.random(in: 0...500, using: &random)).99 USD"),
      "customer.lifetime_refunded": maybe("\(Int.random(in: 0...100, using: &random)) USD"),
      "history.earlier_requests": maybe(String(Int.random(in: 0...3, using: &random))),
      "history.earlier_refunds": maybe(String(Int.random(in: 0...3, using: &random))),
    ]
    return scenario
  }
}

/// SplitMix64: a small, seeded generator so property runs are reproducible.
struct SeededRandom: RandomNumberGenerator {
  private var state: UInt64

  init(seed: UInt64) {
    state = seed
  }

  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}
