import ReckonTestSupport
import Testing

@testable import ReckonPolicy

/// No input crashes loading, and no facts crash evaluation.
struct RobustnessTests {
  static let validPolicy = """
    policy "fuzz"
    version 2
    description "A policy to mutate."

    let used = usage.consumed            # a percent
    let heavy = used >= 80% and not (reason in [LEGAL, OTHER])
    let age = now - purchase.date

    rule "failed" when delivery.status != DELIVERED then refund GRANT_FULL
    rule "accident" when reason == UNINTENDED_PURCHASE and used == 0% and age < 2 days then refund GRANT_FULL
    rule "partly" when product.type == CONSUMABLE and used > 0% and used < 100%
      then refund GRANT_PRORATED, set consumptionPercentage = round(used)
    rule "pricey" when purchase.price is not missing and purchase.price * 50% > min(5 USD, 10 USD) then hold for review, refund DECLINE
    rule "idle" when usage.last_used is missing or now - usage.last_used > 30 days then do not respond
    rule "text" when product.id starts with "com." and -customer.refunds_last_90_days / 2 <= -1.5 then share data only
    rule "heavy" when heavy then refund DECLINE, set sampleContentProvided = true, set deliveryStatus = UNDELIVERED_OTHER

    otherwise share data only
    """

  static let vocabulary: [String] = [
    "policy", "version", "description", "let", "rule", "when", "then", "otherwise", "and", "or",
    "not", "in", "is",
    "missing", "starts", "with", "ends", "contains", "true", "false", "refund", "GRANT_FULL",
    "GRANT_PRORATED", "DECLINE",
    "share", "data", "only", "do", "respond", "hold", "for", "review", "set", "deliveryStatus",
    "consumptionPercentage",
    "usage.consumed", "reason", "now", "purchase.date", "purchase.price", "usage.last_used",
    "delivery.status",
    "DELIVERED", "LEGAL", "min", "max", "round", "used", "heavy", "==", "!=", "<", "<=", ">", ">=",
    "=", "+", "-", "*", "/",
    "(", ")", "[", "]", ",", "%", "\"x\"", "\"", "3", "4.99", "USD", "days", "1_000", "#", "\n",
    " ", "\t", "é", "!",
    "&", "|", "'", "12abc", "\\", "9223372036854775.999",
  ]

  @Test func noInputCrashesLoading() {
    var random = SplitMix64(seed: 0x5EED_2024)
    let valid = Array(Self.validPolicy.utf8)
    var loaded = 0
    for round in 0..<3_000 {
      let bytes: [UInt8]
      switch round % 3 {
      case 0: bytes = Self.randomBytes(&random)
      case 1: bytes = Array(Self.randomTokens(&random).utf8)
      default: bytes = Self.mutate(valid, &random)
      }
      let text = String(decoding: bytes, as: UTF8.self)
      let result = TestSchema.load(text)
      _ = result.renderedDiagnostics()
      if let policy = result.policy { _ = policy.evaluate(policy.makeFacts(), trace: true) }
      loaded += 1
    }
    #expect(loaded == 3_000)
  }

  @Test func theValidPolicyLoadsCleanly() throws {
    let result = TestSchema.load(Self.validPolicy)
    #expect(!result.hasErrors, "\(result.renderedDiagnostics())")
    #expect(result.policy?.checked.rules.count == 7)
  }

  @Test func randomFactsNeverCrashEvaluation() throws {
    let policy = try TestSchema.compile(Self.validPolicy)
    var random = SplitMix64(seed: 42)
    for _ in 0..<2_000 {
      var facts = policy.makeFacts()
      // By slot: the named setter refuses values no fact can hold (1e300 s after 1970), and
      // evaluation must not crash on them however they arrive.
      for (slot, fact) in TestSchema.schema.facts.enumerated() {
        guard let value = Self.randomValue(of: fact.type, &random) else { continue }
        facts.set(slot: slot, to: value)
      }
      let plain = policy.evaluate(facts)
      let traced = policy.evaluate(facts, trace: true)
      #expect(plain.rule == traced.rule)
    }
  }

  // MARK: Generators

  static func randomBytes(_ random: inout SplitMix64) -> [UInt8] {
    (0..<Int.random(in: 0..<200, using: &random)).map { _ in
      UInt8.random(in: 0...255, using: &random)
    }
  }

  static func randomTokens(_ random: inout SplitMix64) -> String {
    (0..<Int.random(in: 0..<120, using: &random)).map { _ in
      vocabulary.randomElement(using: &random)! + (Bool.random(using: &random) ? " " : "")
    }.joined()
  }

  static func mutate(_ bytes: [UInt8], _ random: inout SplitMix64) -> [UInt8] {
    var result = bytes
    for _ in 0..<Int.random(in: 1...6, using: &random) {
      guard !result.isEmpty else { break }
      let start = Int.random(in: 0..<result.count, using: &random)
      let end = min(result.count, start + Int.random(in: 0...40, using: &random))
      switch Int.random(in: 0..<5, using: &random) {
      case 0: result.removeSubrange(start..<end)
      case 1:
        result.insert(contentsOf: Array(vocabulary.randomElement(using: &random)!.utf8), at: start)
      case 2: result.insert(contentsOf: result[start..<end], at: end)
      case 3:
        let other = Int.random(in: 0..<result.count, using: &random)
        result.swapAt(start, other)
      default: result.insert(UInt8.random(in: 0...255, using: &random), at: start)
      }
    }
    return result
  }

  static func randomValue(of type: ValueType, _ random: inout SplitMix64) -> Value? {
    if Int.random(in: 0..<5, using: &random) == 0 { return nil }
    let numbers: [Double] = [
      0, -1, 1, 0.5, 100, 1e300, -1e300, .infinity, -.infinity, .nan, 86_400, 1_700_000_000,
    ]
    let number = numbers.randomElement(using: &random)!
    switch type {
    case .boolean: return .boolean(Bool.random(using: &random))
    case .number: return .number(number)
    case .percent: return .percent(number)
    case .money:
      let amounts: [Int64] = [0, 1, -1, 4_990, .max, .min, .max / 2]
      return .money(
        amounts.randomElement(using: &random)!,
        currency: ["USD", "EUR", ""].randomElement(using: &random)!)
    case .duration: return .duration(number)
    case .timestamp: return .timestamp(number)
    case .text:
      return .text(["", "com.", "com.example.coins", "é☕️"].randomElement(using: &random)!)
    case .enumeration(let enumType):
      return .enumeration(Int.random(in: 0..<enumType.cases.count, using: &random))
    case .list: return nil
    }
  }
}
