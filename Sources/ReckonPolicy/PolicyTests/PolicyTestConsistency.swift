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
  static func clashingExpectations(_ expectations: [Expectation], words: PolicyVocabulary)
    -> [Clash]
  {
    var clashes: [Clash] = []
    for (index, expectation) in expectations.enumerated() {
      for earlier in expectations[..<index] {
        guard let (message, hint) = clash(earlier.kind, expectation.kind, words) else { continue }
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
  private static func clash(
    _ earlier: Expectation.Kind, _ later: Expectation.Kind, _ words: PolicyVocabulary
  ) -> (
    message: String, hint: String
  )? {
    let never = "no decision can meet both, so the test would fail whatever the policy says"
    switch (earlier, later) {
    case (.field(let first, _), .field(let second, _))
    where words.field(first.value) == words.field(second.value):
      let named =
        first.value == second.value
        ? second.value : "\(second.value) is \(first.value) by another name, and it"
      return (
        "\(named) is already expected in this test",
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
      replies(earlier, words).flatMap { first in replies(later, words).map { $0 != first } }
      ?? false
    let preferencesDiffer =
      preference(earlier, words).flatMap { first in
        preference(later, words).map { $0 != first }
      } ?? false
    guard repliesDiffer || preferencesDiffer, let first = phrase(earlier, words),
      let second = phrase(later, words)
    else { return nil }
    return ("this test already expects \(first), which rules out \(second)", never)
  }

  /// The choice a `FIELD = VALUE` expectation names when the field is the one the choice is
  /// sent in (`refundPreference = DECLINE`); nil for any other expectation.
  private static func chosen(_ kind: Expectation.Kind, _ words: PolicyVocabulary) -> String? {
    guard case .field(let field, let value?) = kind, field.value == words.choiceField else {
      return nil
    }
    return value.text
  }

  /// Whether the expectation says a reply is made (held or not); nil when it does not say.
  private static func replies(_ kind: Expectation.Kind, _ words: PolicyVocabulary) -> Bool? {
    switch kind {
    case .choose, .replyWithoutChoice, .holdForReview: true
    case .withholdReply, .noReply: false
    // Any field of the reply is expected of a reply: without one, the test cannot pass.
    case .field(let field, _): words.replyFields.contains(field.value) ? true : nil
    case .rule, .otherwise: nil
    }
  }

  /// The choice the expectation requires (`.some(nil)` for none, as `refundPreference is
  /// missing` says); nil when it does not say.
  private static func preference(_ kind: Expectation.Kind, _ words: PolicyVocabulary) -> String?? {
    switch kind {
    case .choose(let choice): .some(choice.value)
    case .replyWithoutChoice: .some(words.replyWithoutChoiceSends)
    case .field(let field, nil) where field.value == words.choiceField: .some(nil)
    case .field: chosen(kind, words).map { .some($0) }
    default: nil
    }
  }

  private static func phrase(_ kind: Expectation.Kind, _ words: PolicyVocabulary) -> String? {
    switch kind {
    case .choose(let choice): "\(words.choose.text) \(choice.value)"
    case .replyWithoutChoice: words.replyWithoutChoice.text
    case .holdForReview: words.holdForReview.text
    case .withholdReply: words.withholdReply.text
    case .noReply: "no reply"
    case .field(let field, nil): "\(field.value) is missing"
    case .field(let field, let value?): "\(field.value) = \(value.text)"
    case .rule, .otherwise: nil
    }
  }
}
