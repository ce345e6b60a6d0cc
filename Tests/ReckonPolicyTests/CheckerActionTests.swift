import Testing

@testable import ReckonPolicy

struct CheckerActionTests {
  struct ConflictCase: CustomTestStringConvertible, Sendable {
    let actions: String
    let message: String
    let at: String
    var id: DiagnosticID = .conflictingActions
    var testDescription: String { actions }
  }

  static let conflicts: [ConflictCase] = [
    ConflictCase(
      actions: "refund DECLINE, refund GRANT_FULL",
      message: "'refund GRANT_FULL' conflicts with 'refund DECLINE' in the same rule",
      at: "refund GRANT_FULL"),
    ConflictCase(
      actions: "refund DECLINE, do not respond",
      message: "'do not respond' conflicts with 'refund DECLINE' in the same rule",
      at: "do not respond"),
    ConflictCase(
      actions: "share data only, refund DECLINE",
      message: "'refund DECLINE' conflicts with 'share data only' in the same rule",
      at: "refund DECLINE"),
    ConflictCase(
      actions: "refund DECLINE, refund DECLINE",
      message: "'refund DECLINE' is given twice in the same rule",
      at: "refund DECLINE", id: .actionGivenTwice),
    ConflictCase(
      actions: "hold for review, refund DECLINE, hold for review",
      message: "'hold for review' is given twice in the same rule",
      at: "hold for review", id: .actionGivenTwice),
    ConflictCase(
      actions: "set sampleContentProvided = true, set sampleContentProvided = false",
      message: "'sampleContentProvided' is set twice in the same rule",
      at: "set sampleContentProvided = false", id: .fieldSetTwice),
    ConflictCase(
      actions: "do not respond, hold for review",
      message: "nothing is sent when a rule says 'do not respond', so this action has no effect",
      at: "hold for review", id: .actionWithoutReply),
    ConflictCase(
      actions: "set deliveryStatus = DELIVERED, do not respond",
      message: "nothing is sent when a rule says 'do not respond', so this action has no effect",
      at: "set deliveryStatus = DELIVERED", id: .actionWithoutReply),
  ]

  @Test("conflicting actions in one rule are errors", arguments: conflicts)
  func conflictingActions(_ testCase: ConflictCase) throws {
    let source = "rule \"r\" when true then \(testCase.actions)"
    let result = TestSchema.load(source)
    let error = try #require(result.diagnostics.first { $0.isError })
    #expect(result.diagnostics.filter(\.isError).count == 1, "\(result.renderedDiagnostics())")
    #expect(error.id == testCase.id)
    #expect(error.message == testCase.message)
    #expect(result.source.text(of: error.span).hasSuffix(testCase.at))
  }

  @Test func conflictsInOtherwiseAreErrorsToo() {
    #expect(
      TestSchema.errorIDs("otherwise refund DECLINE, share data only") == [.conflictingActions])
  }

  @Test(arguments: [
    "refund DECLINE, hold for review, set sampleContentProvided = true",
    "share data only, hold for review",
    "do not respond",
    "refund GRANT_FULL, set deliveryStatus = UNDELIVERED_OTHER, set sampleContentProvided = false",
  ])
  func compatibleActionsLoad(_ actions: String) throws {
    let policy = try TestSchema.compile("rule \"r\" when true then \(actions)")
    #expect(policy.checked.rules[0].actions.count == actions.split(separator: ",").count)
  }
}

struct ConstantFoldingTests {
  struct FoldCase: CustomTestStringConvertible, Sendable {
    let condition: String
    let value: Value
    var testDescription: String { condition }
  }

  static let cases: [FoldCase] = [
    FoldCase(condition: "1 + 2 * 3 == 7", value: .boolean(true)),
    FoldCase(condition: "not false", value: .boolean(true)),
    FoldCase(condition: "false and usage.consumed > 0%", value: .boolean(false)),
    FoldCase(condition: "usage.consumed > 0% or true", value: .boolean(true)),
    FoldCase(condition: "true and true", value: .boolean(true)),
    FoldCase(condition: "false or false", value: .boolean(false)),
    FoldCase(condition: "max(1, 3) == round(2.5)", value: .boolean(true)),
    FoldCase(condition: "-(-5%) == 5%", value: .boolean(true)),
    FoldCase(condition: "2 days > 47 hours", value: .boolean(true)),
    FoldCase(condition: "4.99 USD * 2 == 9.98 USD", value: .boolean(true)),
    FoldCase(condition: "10 USD * 15% == 1.5 USD", value: .boolean(true)),
    FoldCase(condition: "\"com.example\" starts with \"com.\"", value: .boolean(true)),
    FoldCase(condition: "3 in [1, 2]", value: .boolean(false)),
    FoldCase(condition: "3 not in [1, 2]", value: .boolean(true)),
  ]

  @Test("constant subexpressions are folded to their value", arguments: cases)
  func folds(_ testCase: FoldCase) throws {
    let result = TestSchema.load("rule \"r\" when \(testCase.condition) then refund DECLINE")
    #expect(!result.hasErrors, "\(result.renderedDiagnostics())")
    let rule = try #require(result.policy?.checked.rules.first)
    #expect(rule.condition.constantValue == testCase.value)
  }

  @Test func aLetWithAConstantValueFoldsWhereItIsUsed() throws {
    let condition = try TestSchema.checkedCondition("limit > 2", lets: "let limit = 1 + 2")
    #expect(condition.constantValue == .boolean(true))
  }

  @Test func partlyConstantExpressionsKeepTheirFactsAndFoldTheRest() throws {
    let condition = try TestSchema.checkedCondition("now - purchase.date > 2 days + 12 hours")
    guard case .compare(.greater, let left, let right) = condition.kind else {
      Issue.record("not folded as expected: \(condition)")
      return
    }
    #expect(left.constantValue == nil)
    #expect(right.constantValue == .duration(2.5 * 86_400))
  }
}
