/// Finds what a test says twice: a fact given twice in one scope, which hides the first value,
/// and expectations no decision can meet together, which make the test fail whatever the policy.
enum PolicyTestConsistency {
  /// A problem with the later of two clauses, and the earlier one it clashes with.
  struct Clash: Equatable {
    let id: DiagnosticID
    let message: String
    let span: SourceSpan
    let earlier: SourceSpan
    let hint: String
  }

  /// Each fact in `givens` given again after its first assignment.
  static func repeatedGivens(_ givens: [FactAssignment], scope: String) -> [Clash] {
    var first: [String: FactAssignment] = [:]
    var clashes: [Clash] = []
    for given in givens {
      if let earlier = first[given.fact.value] {
        clashes.append(
          Clash(
            id: .duplicateGiven, message: "\(given.fact.value) is already given \(scope)",
            span: given.span, earlier: earlier.span,
            hint: "give each fact once: the second value would silently replace the first"))
      } else {
        first[given.fact.value] = given
      }
    }
    return clashes
  }

  /// Each expectation that contradicts or repeats an earlier one of the same test.
  static func clashingExpectations(_ expectations: [Expectation]) -> [Clash] {
    var clashes: [Clash] = []
    for (index, expectation) in expectations.enumerated() {
      for earlier in expectations[..<index] {
        guard let (message, hint) = clash(earlier.kind, expectation.kind) else { continue }
        clashes.append(
          Clash(
            id: .conflictingExpectations, message: message, span: expectation.span,
            earlier: earlier.span, hint: hint))
        break
      }
    }
    return clashes
  }

  /// Why `later` cannot be expected beside `earlier`, or nil when both can hold.
  private static func clash(_ earlier: Expectation.Kind, _ later: Expectation.Kind) -> (
    message: String, hint: String
  )? {
    let never = "no decision can meet both, so the test would fail whatever the policy says"
    switch (earlier, later) {
    case (.field(let first, _), .field(let second, _)) where first.value == second.value:
      return (
        "\(second.value) is already expected in this test",
        "expect each field once: two values cannot both hold, and one repeated says nothing more"
      )
    case (.rule(let first), .rule(let second)) where first.value != second.value:
      return ("this test already expects rule \"\(first.value)\" to decide", never)
    case (.rule, .otherwise), (.otherwise, .rule):
      return ("this test expects both a rule and otherwise to decide", never)
    default:
      break
    }
    let repliesDiffer =
      replies(earlier).flatMap { first in replies(later).map { $0 != first } } ?? false
    let preferencesDiffer =
      preference(earlier).flatMap { first in preference(later).map { $0 != first } } ?? false
    guard repliesDiffer || preferencesDiffer, let first = phrase(earlier),
      let second = phrase(later)
    else { return nil }
    return ("this test already expects \(first), which rules out \(second)", never)
  }

  /// Whether the expectation says a reply is made (held or not); nil when it does not say.
  private static func replies(_ kind: Expectation.Kind) -> Bool? {
    switch kind {
    case .refund, .shareDataOnly, .holdForReview: true
    case .doNotRespond, .noReply: false
    case .rule, .otherwise, .field: nil
    }
  }

  /// The refund preference the expectation requires (`.some(nil)` for none); nil when it does not say.
  private static func preference(_ kind: Expectation.Kind) -> String?? {
    switch kind {
    case .refund(let choice): .some(choice.value)
    case .shareDataOnly: .some(nil)
    default: nil
    }
  }

  private static func phrase(_ kind: Expectation.Kind) -> String? {
    switch kind {
    case .refund(let choice): "refund \(choice.value)"
    case .shareDataOnly: "share data only"
    case .holdForReview: "hold for review"
    case .doNotRespond: "do not respond"
    case .noReply: "no reply"
    case .rule, .otherwise, .field: nil
    }
  }
}
