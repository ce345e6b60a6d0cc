import Testing

@testable import ReckonPolicy

struct ParserExpressionTests {
  struct TreeCase: CustomTestStringConvertible, Sendable {
    let source: String
    let tree: String
    var testDescription: String { source }
  }

  static let treeCases: [TreeCase] = [
    TreeCase(source: "a or b and c", tree: "(or a (and b c))"),
    TreeCase(source: "a and b or c and d", tree: "(or (and a b) (and c d))"),
    TreeCase(source: "not a == b", tree: "(not (== a b))"),
    TreeCase(source: "not a and b", tree: "(and (not a) b)"),
    TreeCase(source: "not not a", tree: "(not (not a))"),
    TreeCase(source: "a + b * c == d", tree: "(== (+ a (* b c)) d)"),
    TreeCase(source: "a - b - c", tree: "(- (- a b) c)"),
    TreeCase(source: "a / b * c", tree: "(* (/ a b) c)"),
    TreeCase(source: "(a + b) * c", tree: "(* (+ a b) c)"),
    TreeCase(source: "-a * b", tree: "(* (- a) b)"),
    TreeCase(source: "- -3", tree: "(- (- 3))"),
    TreeCase(source: "a != b", tree: "(!= a b)"),
    TreeCase(source: "a < b", tree: "(< a b)"),
    TreeCase(source: "a <= b", tree: "(<= a b)"),
    TreeCase(source: "a > b", tree: "(> a b)"),
    TreeCase(source: "a >= b", tree: "(>= a b)"),
    TreeCase(source: "reason in [LEGAL, OTHER]", tree: "(in reason [LEGAL OTHER])"),
    TreeCase(source: "reason not in [LEGAL]", tree: "(not in reason [LEGAL])"),
    TreeCase(source: "reason in []", tree: "(in reason [])"),
    TreeCase(source: "reason in [LEGAL,]", tree: "(in reason [LEGAL])"),
    TreeCase(source: "x is missing", tree: "(is missing x)"),
    TreeCase(source: "x is not missing and y", tree: "(and (is not missing x) y)"),
    TreeCase(source: "product.id starts with \"com.\"", tree: "(starts with product.id \"com.\")"),
    TreeCase(source: "product.id ends with \".coins\"", tree: "(ends with product.id \".coins\")"),
    TreeCase(source: "product.id contains \"coin\"", tree: "(contains product.id \"coin\")"),
    TreeCase(source: "max(a, 2, b) > round(c)", tree: "(> (max a 2 b) (round c))"),
    TreeCase(source: "f()", tree: "(f )"),
    TreeCase(source: "true or false", tree: "(or true false)"),
    TreeCase(source: "40% < 12.5%", tree: "(< 40% 12.5%)"),
    TreeCase(source: "x == 4.99 USD", tree: "(== x 4990mUSD)"),
    TreeCase(source: "x == 1_000 EUR", tree: "(== x 1000000mEUR)"),
    TreeCase(source: "x > 90 days", tree: "(> x 7776000s(90 days))"),
    TreeCase(source: "x > 1 hour", tree: "(> x 3600s(1 hour))"),
    TreeCase(source: "x > 1.5 seconds", tree: "(> x 1.5s(1.5 seconds))"),
    TreeCase(source: "x == 3", tree: "(== x 3)"),
  ]

  @Test("operators group by precedence", arguments: treeCases)
  func precedence(_ testCase: TreeCase) {
    let (expression, diagnostics) = TestSchema.condition(testCase.source)
    #expect(diagnostics.isEmpty)
    #expect(TreePrinter.print(expression) == testCase.tree)
  }

  @Test func durationsOfDifferentUnitsAdd() {
    let (expression, diagnostics) = TestSchema.condition("x > 30 minutes + 2 weeks")
    #expect(diagnostics.isEmpty)
    #expect(TreePrinter.print(expression) == "(> x (+ 1800s(30 minutes) 1209600s(2 weeks)))")
  }

  @Test func everyNodeSpanCoversItsSourceText() throws {
    let text = "not (a + 1) * -b >= max(c, 2) and reason not in [LEGAL] or x is not missing"
    let source = TestSchema.source("rule \"r\" when \(text) then refund DECLINE")
    let (syntax, _) = Parser.parse(source)
    let condition = try #require(syntax.rules.first).condition
    var spans: [String] = []
    func walk(_ node: Expression) {
      spans.append(source.text(of: node.span))
      switch node.kind {
      case .negate(let e), .not(let e), .missingTest(_, let e): walk(e)
      case .binary(_, let l, let r), .compare(_, let l, let r):
        walk(l)
        walk(r)
      case .membership(_, let s, let es):
        walk(s)
        es.forEach(walk)
      case .call(_, let args): args.forEach(walk)
      default: break
      }
    }
    walk(condition)
    #expect(
      spans == [
        text,
        "not (a + 1) * -b >= max(c, 2) and reason not in [LEGAL]",
        "not (a + 1) * -b >= max(c, 2)",
        "(a + 1) * -b >= max(c, 2)",
        "(a + 1) * -b",
        "(a + 1)", "a", "1",
        "-b", "b",
        "max(c, 2)", "c", "2",
        "reason not in [LEGAL]", "reason", "LEGAL",
        "x is not missing", "x",
      ])
  }

  @Test func literalSpansIncludeTheirUnit() throws {
    for literal in ["4.99 USD", "90 days", "12.5%", "\"text\""] {
      let source = TestSchema.source("rule \"r\" when x == \(literal) then refund DECLINE")
      let (syntax, _) = Parser.parse(source)
      guard case .compare(_, _, let right) = try #require(syntax.rules.first).condition.kind else {
        Issue.record("not a comparison")
        continue
      }
      #expect(source.text(of: right.span) == literal)
    }
  }

  struct ErrorCase: CustomTestStringConvertible, Sendable {
    let source: String
    let id: DiagnosticID
    let at: String
    var testDescription: String { source }
  }

  static let errorCases: [ErrorCase] = [
    ErrorCase(source: "a < b < c", id: .chainedComparison, at: "<"),
    ErrorCase(source: "a == b in [c]", id: .chainedComparison, at: "in"),
    ErrorCase(source: "a is missing is missing", id: .chainedComparison, at: "is"),
    ErrorCase(source: "[LEGAL, OTHER] == reason", id: .listOutsideIn, at: "[LEGAL, OTHER]"),
    ErrorCase(source: "a and", id: .expectedExpression, at: "then"),
    ErrorCase(source: "a is b", id: .expectedKeyword, at: "b"),
    ErrorCase(source: "(a", id: .expectedToken, at: "then"),
    ErrorCase(source: "x == 1.2345 USD", id: .invalidNumber, at: "1.2345 USD"),
    ErrorCase(
      source: "x == 9223372036854775.999 USD", id: .invalidNumber, at: "9223372036854775.999 USD"),
    ErrorCase(
      source: "x == 99999999999999999999 USD", id: .invalidNumber, at: "99999999999999999999 USD"),
  ]

  @Test("malformed expressions report one error at the right place", arguments: errorCases)
  func malformedExpression(_ testCase: ErrorCase) throws {
    let source = TestSchema.source("rule \"r\" when \(testCase.source) then refund DECLINE")
    let (_, diagnostics) = Parser.parse(source)
    let diagnostic = try #require(diagnostics.first)
    #expect(diagnostics.count == 1)
    #expect(diagnostic.id == testCase.id)
    #expect(source.text(of: diagnostic.span) == testCase.at)
  }

  @Test(arguments: ["(", "-", "not ", "[", "max("])
  func nestingTwoHundredDeepIsAnErrorNotACrash(_ opener: String) {
    let text = String(repeating: opener, count: 200) + "1"
    let (_, diagnostics) = Parser.parse(
      TestSchema.source("rule \"r\" when \(text) then refund DECLINE"))
    #expect(diagnostics.map(\.id).contains(.nestingTooDeep))
  }

  @Test func nestingDepthRecoversAfterANestingError() {
    let deep = String(repeating: "(", count: 200) + "1"
    let broken = (0..<20).map { "rule \"d\($0)\" when \(deep) then refund DECLINE" }
    let levels = Parser.maximumNesting - 2
    let good =
      "rule \"good\" when " + String(repeating: "(", count: levels) + "true"
      + String(repeating: ")", count: levels)
      + " then refund DECLINE"
    let (syntax, diagnostics) = Parser.parse(
      TestSchema.source((broken + [good]).joined(separator: "\n")))
    #expect(diagnostics.map(\.id) == Array(repeating: .nestingTooDeep, count: 20))
    #expect(syntax.rules.last?.condition.kind == .literal(.boolean(true)))
  }

  /// The value inside the parentheses is a level too, as docs/language.md's limits say: 99
  /// parentheses around it load, 100 do not.
  @Test(arguments: [(99, true), (100, false)])
  func parenthesesCountAsLevelsWithTheValueInside(count: Int, loads: Bool) {
    let text = String(repeating: "(", count: count) + "true" + String(repeating: ")", count: count)
    let (_, diagnostics) = Parser.parse(
      TestSchema.source("rule \"r\" when \(text) then refund DECLINE"))
    #expect(diagnostics.isEmpty == loads, "\(diagnostics)")
  }

  @Test func nestingWithinTheLimitParses() {
    let text = String(repeating: "(", count: 40) + "true" + String(repeating: ")", count: 40)
    let (_, diagnostics) = Parser.parse(
      TestSchema.source("rule \"r\" when \(text) then refund DECLINE"))
    #expect(diagnostics.isEmpty)
  }

  @Test(arguments: [" and ", " or ", " + ", " * "])
  func aVeryLongOperatorChainIsAnErrorNotADeepTree(_ op: String) {
    let text = Array(repeating: "x", count: 20_000).joined(separator: op)
    let result = TestSchema.load("let x = 1\nrule \"r\" when \(text) then refund DECLINE")
    #expect(result.diagnostics.map(\.id) == [.nestingTooDeep])
  }

  @Test func aLongButReasonableChainLoads() {
    let text = (0..<40).map { "customer.refunds_last_90_days != \($0)" }.joined(separator: " and ")
    let result = TestSchema.load("rule \"r\" when \(text) then refund DECLINE")
    #expect(!result.hasErrors)
  }

  @Test(arguments: ["and", "or"])
  func aFlatChainOfTooManyConditionsSaysSoRatherThanNesting(_ word: String) throws {
    let parts = (0...Parser.maximumNesting).map { "customer.refunds_last_90_days != \($0)" }
    let source = TestSchema.source(
      "rule \"r\" when \(parts.joined(separator: " \(word) ")) then refund DECLINE")
    let (_, diagnostics) = Parser.parse(source)
    let diagnostic = try #require(diagnostics.first)
    #expect(diagnostics.count == 1)
    #expect(diagnostic.id == .nestingTooDeep)
    #expect(diagnostic.message == "this condition joins more than 100 conditions with '\(word)'")
    #expect(source.text(of: diagnostic.span) == word)
  }

  @Test func aChainOfExactlyTheLimitLoads() {
    let parts = (0..<Parser.maximumNesting).map { "customer.refunds_last_90_days != \($0)" }
    let result = TestSchema.load(
      "rule \"r\" when \(parts.joined(separator: " and ")) then refund DECLINE")
    #expect(!result.hasErrors, "\(result.renderedDiagnostics())")
  }
}
