import Testing

@testable import ReckonPolicy

/// `and`, `or` and `not` over true, false and unknown, where unknown comes from a missing fact.
struct ThreeValuedLogicTests {
  enum Truth: String, CaseIterable, Sendable {
    case yes, no, unknown

    /// A condition over the test schema with this truth value for the base facts.
    var condition: String {
      switch self {
      case .yes: "customer.refunds_last_90_days == 0"
      case .no: "customer.refunds_last_90_days == 1"
      case .unknown: "purchase.price > 1 USD"
      }
    }
  }

  struct LogicCase: CustomTestStringConvertible, Sendable {
    let op: String
    let left: Truth
    let right: Truth
    let result: Truth
    var testDescription: String { "\(left) \(op) \(right) is \(result)" }
  }

  static let andTable: [LogicCase] = [
    (Truth.yes, Truth.yes, Truth.yes), (.yes, .no, .no), (.yes, .unknown, .unknown),
    (.no, .yes, .no), (.no, .no, .no), (.no, .unknown, .no),
    (.unknown, .yes, .unknown), (.unknown, .no, .no), (.unknown, .unknown, .unknown),
  ].map { LogicCase(op: "and", left: $0.0, right: $0.1, result: $0.2) }

  static let orTable: [LogicCase] = [
    (Truth.yes, Truth.yes, Truth.yes), (.yes, .no, .yes), (.yes, .unknown, .yes),
    (.no, .yes, .yes), (.no, .no, .no), (.no, .unknown, .unknown),
    (.unknown, .yes, .yes), (.unknown, .no, .unknown), (.unknown, .unknown, .unknown),
  ].map { LogicCase(op: "or", left: $0.0, right: $0.1, result: $0.2) }

  @Test("three-valued and/or", arguments: andTable + orTable)
  func truthTable(_ testCase: LogicCase) throws {
    let condition = "(\(testCase.left.condition)) \(testCase.op) (\(testCase.right.condition))"
    #expect(try value(of: condition) == testCase.result)
  }

  @Test("three-valued not", arguments: [(Truth.yes, Truth.no), (.no, .yes), (.unknown, .unknown)])
  func negation(_ operand: Truth, _ result: Truth) throws {
    #expect(try value(of: "not (\(operand.condition))") == result)
  }

  @Test func isMissingAndIsNotMissingAreNeverUnknown() throws {
    #expect(try value(of: "purchase.price is missing") == .yes)
    #expect(try value(of: "purchase.price is not missing") == .no)
    #expect(try value(of: "usage.consumed is missing") == .no)
    #expect(try value(of: "not (purchase.price is missing)") == .no)
  }

  @Test func aComparisonReadingAMissingFactIsUnknownEitherWay() throws {
    #expect(try value(of: "purchase.price > 1 USD") == .unknown)
    #expect(try value(of: "purchase.price <= 1 USD") == .unknown)
    #expect(try value(of: "purchase.price in [1 USD]") == .unknown)
    #expect(try value(of: "purchase.price not in [1 USD]") == .unknown)
    #expect(try value(of: "min(purchase.price, 1 USD) == 1 USD") == .unknown)
  }

  @Test func aRuleWithAnUnknownConditionDoesNotMatchAndTheTraceSaysWhy() throws {
    let policy = try TestSchema.compile(
      """
      rule "pricey" when purchase.price > 10 USD then refund DECLINE
      rule "cheap" when not (purchase.price > 10 USD) then refund GRANT_FULL
      otherwise share data only
      """)
    let decision = policy.evaluate(try TestSchema.baseFacts(), trace: true)
    #expect(decision.rule == nil)
    let trace = try #require(decision.trace)
    #expect(trace.attempts.map(\.result) == [nil, nil])
    #expect(trace.missingFacts == [TestSchema.schema.slot(ofFact: "purchase.price")!])
  }

  /// Evaluates one condition against the base facts, as true, false or unknown.
  private func value(of condition: String) throws -> Truth {
    let result = TestSchema.load("rule \"r\" when \(condition) then refund DECLINE")
    #expect(!result.hasErrors, "\(result.renderedDiagnostics())")
    let policy = try #require(result.policy)
    let trace = try #require(policy.evaluate(try TestSchema.baseFacts(), trace: true).trace)
    switch try #require(trace.attempts.first).result {
    case true: return .yes
    case false: return .no
    case nil: return .unknown
    }
  }
}
