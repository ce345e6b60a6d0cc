import ReckonPolicy
import Testing

/// Comments written inside code (an expression broken over lines, a `let`, a condition, a `set`
/// value): `fmt` keeps every one, and formatting twice changes nothing.
struct FormatterCommentTests {
  struct Case: CustomTestStringConvertible, Sendable {
    let name: String
    let input: String
    var testDescription: String { name }
  }

  static let cases: [Case] = [
    Case(
      name: "comment between a header's keyword and its value",
      input:
        "policy \"p\"\nversion 1  # v\ndescription # d1\n  \"desc\"\notherwise share data only\n"),
    Case(
      name: "own-line comment inside a let's call",
      input: "let x = max(usage.consumed,\n    # note\n    10%)\notherwise share data only\n"),
    Case(
      name: "own-line comment inside a let, then a trailing comment on the next let",
      input:
        "let b = max(usage.consumed,\n   # own321\n   10%)  # after b\nlet c = 1  # let c\notherwise share data only\n"
    ),
    Case(
      name: "own-line comment inside arithmetic of a let after a blank line",
      input: "let a = 1\n\nlet b = a +\n  # why two\n  2 * a\notherwise share data only\n"),
    Case(
      name: "own-line comment inside a rule condition",
      input:
        "rule \"r\"\n  when max(usage.consumed,\n    # in cond\n    10%) > 5% and reason == LEGAL\n  then refund DECLINE\n"
    ),
    Case(
      name: "own-line comment inside one part of a wrapped condition",
      input:
        "rule \"r\"\n  when customer.override is not missing and customer.override == GRANT_PRORATED\n    and usage.consumed > max(0%,\n      # inner\n      1%) and usage.consumed < 100%\n  then refund GRANT_PRORATED\n"
    ),
    Case(
      name: "own-line comment inside a part that is not the last of a short condition",
      input:
        "rule \"r\"\n  when max(usage.consumed,\n    # inner\n    1%) > 2% and reason == LEGAL and reason != OTHER\n  then refund DECLINE\n"
    ),
    Case(
      name: "own-line comment inside a rule's set value",
      input:
        "rule \"r\"\n  when reason == LEGAL\n  then refund DECLINE, set consumptionPercentage = max(usage.consumed,\n    # in set\n    10%)\n"
    ),
    Case(
      name: "own-line comment inside a set value that is not the last action",
      input:
        "rule \"r\"\n  when reason == LEGAL\n  then set consumptionPercentage = max(usage.consumed,\n    # in set\n    10%), refund DECLINE\n"
    ),
    Case(
      name: "own-line comment inside otherwise's set value, then a trailing comment",
      input:
        "otherwise refund DECLINE, set consumptionPercentage = max(usage.consumed,\n    # in otherwise\n    10%)  # trailing\n"
    ),
    Case(
      name: "trailing comment inside an expression",
      input:
        "let x = max(usage.consumed,  # first\n    # second\n    10%)\nrule \"r\"\n  when x > 5% and  # t\n    reason == LEGAL\n  then refund DECLINE\n"
    ),
    Case(
      name: "comments inside a rule's name line and between actions",
      input:
        "rule\n  # before the name\n  \"r\"\n  when reason == LEGAL\n  then refund DECLINE,\n    # about the set\n    set consumptionPercentage = min(\n      # low\n      usage.consumed, 10%)\n"
    ),
  ]

  @Test(arguments: cases)
  func formattingTwiceEqualsFormattingOnceAndKeepsEveryComment(_ example: Case) throws {
    let once = try PolicyFormatter().format(SourceFile(path: "p.policy", text: example.input))
    let twice = try PolicyFormatter().format(SourceFile(path: "p.policy", text: once))
    #expect(once == twice, "not idempotent; once:\n\(once)\ntwice:\n\(twice)")
    #expect(Self.comments(in: once) == Self.comments(in: example.input), "formatted:\n\(once)")
    #expect(SyntaxShape.of(once) == SyntaxShape.of(example.input))
  }

  @Test func aCommentInsideALetGoesAboveTheLetAndATrailingCommentStaysOnItsCode() throws {
    let input =
      "let x = max(usage.consumed,\n    # note\n    10%)  # after\nlet c = 1  # let c\notherwise share data only\n"
    let formatted = try PolicyFormatter().format(SourceFile(path: "p.policy", text: input))
    #expect(
      formatted
        == "# note\nlet x = max(usage.consumed, 10%)  # after\nlet c = 1  # let c\notherwise share data only\n"
    )
  }

  @Test func aCommentInsideAConditionOrSetGoesAboveItsLineAtThatLinesIndent() throws {
    let input =
      "rule \"r\"\n  when max(usage.consumed,\n  # c1\n  10%) > 5%\n  then refund DECLINE, set consumptionPercentage = max(usage.consumed,\n# c2\n10%)\n"
    let formatted = try PolicyFormatter().format(SourceFile(path: "p.policy", text: input))
    #expect(
      formatted
        == "rule \"r\"\n  # c1\n  when max(usage.consumed, 10%) > 5%\n  # c2\n  then refund DECLINE, set consumptionPercentage = max(usage.consumed, 10%)\n"
    )
  }

  /// Every comment's text, sorted: the comments a layout keeps, wherever it puts them.
  static func comments(in text: String) -> [String] {
    let (syntax, _) = Parser.parse(SourceFile(path: "p.policy", text: text))
    return syntax.comments.map { $0.text.trimmingTrailingSpaces() }.sorted()
  }
}

extension String {
  fileprivate func trimmingTrailingSpaces() -> String {
    var text = Substring(self)
    while text.last == " " { text.removeLast() }
    return String(text)
  }
}
