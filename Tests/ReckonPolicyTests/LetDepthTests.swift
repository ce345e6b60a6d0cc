import Foundation
import Testing

@testable import ReckonPolicy

/// How deep lets may chain: a let's depth counts the lets it expands through, and one past
/// `Checker.maximumExpandedDepth` is an error at that let, so no loaded policy can overflow the
/// stack of the thread that evaluates, explains or lints it.
struct LetDepthTests {
  enum Chain: String, CaseIterable, CustomTestStringConvertible, Sendable {
    /// `let xN = x(N-1)`: one level per let.
    case alias
    /// `let xN = x(N-1) + 1`: two levels per let.
    case arithmetic
    /// `let xN = x(N-1) and customer.consented`: two levels per let.
    case condition

    var testDescription: String { rawValue }

    /// The most lets whose rule, at the end of the chain, is exactly at the limit.
    var mostLets: Int {
      let limit = Checker.maximumExpandedDepth
      return self == .alias ? limit - 2 : (limit - 1) / 2
    }

    func policy(lets count: Int) -> String {
      var lines: [String]
      switch self {
      case .alias:
        lines = ["let x0 = customer.refunds_last_90_days"]
        lines += (1..<count).map { "let x\($0) = x\($0 - 1)" }
        lines.append("rule \"last\" when x\(count - 1) > 3 then refund DECLINE")
      case .arithmetic:
        lines = ["let x0 = customer.refunds_last_90_days"]
        lines += (1..<count).map { "let x\($0) = x\($0 - 1) + 1" }
        lines.append("rule \"last\" when x\(count - 1) > 3 then refund DECLINE")
      case .condition:
        lines = ["let x0 = usage.consumed > 5%"]
        lines += (1..<count).map { "let x\($0) = x\($0 - 1) and customer.consented" }
        lines.append("rule \"last\" when x\(count - 1) then refund DECLINE")
      }
      return lines.joined(separator: "\n") + "\n"
    }
  }

  @Test func aThousandChainedLetsLoad() {
    let result = TestSchema.load(Chain.alias.policy(lets: 1_000))
    #expect(!result.hasErrors, "\(result.renderedDiagnostics())")
  }

  /// Debug builds use about three times the stack of release builds per level; 2 MiB here stands
  /// for the 512 KiB the limit is measured against in release (docs/language.md).
  @Test(arguments: Chain.allCases)
  func aChainAtTheLimitLoadsAndEvaluatesWithATraceOnASmallStack(_ chain: Chain) throws {
    let result = TestSchema.load(chain.policy(lets: chain.mostLets))
    #expect(!result.hasErrors, "\(result.renderedDiagnostics())")
    let policy = try #require(result.policy)
    let facts = try TestSchema.facts([
      "customer.refunds_last_90_days": .number(5), "usage.consumed": .percent(50),
      "customer.consented": .boolean(true),
    ])
    let decided = Self.onThread(stackSize: 2 << 20) { policy.evaluate(facts, trace: true).rule }
    #expect(decided == 0)
  }

  @Test(arguments: Chain.allCases)
  func oneLevelPastTheLimitIsAnErrorAtTheRule(_ chain: Chain) {
    let result = TestSchema.load(chain.policy(lets: chain.mostLets + 1))
    #expect(result.diagnostics.filter(\.isError).map(\.id) == [.nestingTooDeep])
    #expect(result.renderedDiagnostics().contains("the condition of rule 'last' nests"))
  }

  @Test func theFirstLetPastTheLimitIsTheOneReportedWithCaret() {
    let limit = Checker.maximumExpandedDepth
    let result = TestSchema.load(Chain.alias.policy(lets: limit + 50), path: "deep.policy")
    #expect(result.diagnostics.map(\.id) == [.nestingTooDeep], "only the first let is reported")
    let rendered = result.renderedDiagnostics()
    #expect(
      rendered.hasPrefix(
        "deep.policy:\(limit + 1):5: error[P0218]: 'x\(limit)' nests \(limit + 1) levels deep counting the lets it uses, more than \(limit)"
      ), "\(rendered)")
    #expect(rendered.contains("| let x\(limit) = x\(limit - 1)\n"))
    #expect(rendered.contains("|     ^~~~~\n"))
  }

  @Test func fourteenThousandAliasesAreCheckedWithoutRecursingThroughThem() {
    let result = TestSchema.load(Chain.alias.policy(lets: 14_000))
    #expect(result.diagnostics.map(\.id) == [.nestingTooDeep])
  }

  /// `let xN = x(N-1) and customer.consented` used to give each let every earlier let's
  /// `customer.consented` as a separate part: quadratic in the number of lets.
  @Test func conditionChainsAreAnalysedInLinearTime() {
    let policy = Chain.condition.policy(lets: Chain.condition.mostLets)
    let rules = (0..<200).map { "rule \"r\($0)\" when x\($0) then refund DECLINE" }
    let elapsed = ContinuousClock().measure {
      #expect(!TestSchema.load(policy + rules.joined(separator: "\n")).hasErrors)
    }
    #expect(elapsed < .seconds(2))
  }

  static func onThread<T: Sendable>(stackSize: Int, _ body: @escaping @Sendable () -> T) -> T {
    let box = ResultBox<T>()
    let done = DispatchSemaphore(value: 0)
    let thread = Thread {
      box.value = body()
      done.signal()
    }
    thread.stackSize = stackSize
    thread.start()
    done.wait()
    return box.value!
  }

  /// A let's currency is worked out once: lets built from two uses of the one before took 2^N
  /// walks to find it (24 lets, 30 s).
  @Test func manyMoneyLetsBuiltFromEachOtherCheckInLinearTime() throws {
    // No constant anywhere, so every branch is searched for one; 2^22 walks took 8 s.
    var lines = ["let a0 = purchase.price"]
    for index in 1..<23 {
      lines.append("let a\(index) = a\(index - 1) + a\(index - 1)")
    }
    lines.append(
      "rule \"a\" when purchase.price is not missing and a22 > 5 USD then refund DECLINE")
    let clock = ContinuousClock()
    let elapsed = clock.measure {
      #expect(TestSchema.errorIDs(lines.joined(separator: "\n")).isEmpty)
    }
    #expect(elapsed < .seconds(2))
  }
}

/// Hands a value from the thread that computed it to the one waiting on the semaphore.
private final class ResultBox<T>: @unchecked Sendable {
  var value: T?
}
