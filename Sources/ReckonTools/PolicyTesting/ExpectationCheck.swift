import ReckonAppStore
import ReckonEngine
import ReckonFacts
import ReckonGooglePlay
import ReckonPolicy

/// Checks one `expect` clause: first against the policy (does the rule exist, is the value valid),
/// then against a decision, saying what was expected and what came out.
struct ExpectationCheck {
  let expectation: Expectation
  /// The store whose decision is checked, whose words the expectation is in.
  let store: FactSchema.Store
  /// The expected value of a body field, normalised as `ExpectationCheck.fieldText` renders it.
  private(set) var expectedFieldText: String?
  /// Which deciders say `do not respond`: the rules by index, and whether `otherwise` does. The
  /// decision only records why nothing was sent, and consent is checked first, so `expect do not
  /// respond` is read off what the policy decided, not off the decision's skip reason.
  private let silentRules: Set<Int>
  private let silentOtherwise: Bool
  /// For `expect LET = VALUE`: the let's index, and the policy that computes it.
  private var checkedLet: (index: Int, policy: CompiledPolicy)?
  /// For `expect LET = VALUE`: the value, compared as the language compares (`0.3` is what
  /// `0.1 + 0.2` comes to); nil for `expect LET is missing`.
  private var expectedLetValue: Value?

  /// Validates `expectation` against `policy`; returns the problem as a diagnostic on failure.
  /// `now` is the test's `now`, which a let's expected time such as `3 days ago` counts back from.
  init(
    _ expectation: Expectation, policy: CompiledPolicy, now: Value? = nil,
    store: FactSchema.Store = .appStore
  ) throws(DiagnosticError) {
    self.expectation = expectation
    self.store = store
    let fields = (store == .appStore ? FactSchema.words : FactSchema.GooglePlay.words).replyFields
    let preferences = Self.preferences(store)
    let rules = policy.checked.rules
    silentRules = Set(rules.indices.filter { rules[$0].actions.contains(.withholdReply) })
    silentOtherwise = policy.checked.otherwise.contains(.withholdReply)
    switch expectation.kind {
    case .choose(let choice):
      guard preferences.contains(choice.value) else {
        throw Self.unknown(choice, among: preferences, what: "refund preference")
      }
    case .rule(let name):
      guard policy.checked.rules.contains(where: { $0.name == name.value }) else {
        throw Self.unknown(
          name, among: policy.checked.rules.map(\.name),
          what: "rule in \(policy.checked.source.path)")
      }
    case .field(let field, let value):
      if !fields.contains(field.value), let index = policy.checked.letIndex(named: field.value) {
        guard !policy.checked.lets[index].isNamedList else {
          throw DiagnosticError(
            Diagnostic(
              .invalidExpectedValue, .error,
              "\(field.value) names a list for 'in', which has no value to expect", at: field.span,
              hint: "expect what a rule testing against it decides, or give the fact it is "
                + "tested against"))
        }
        checkedLet = (index, policy)
        let type = policy.checked.lets[index].value.type
        expectedLetValue = try value.map { value throws(DiagnosticError) in
          do throws(TestValues.Failure) {
            return try TestValues.parse(value, as: type, now: now)
          } catch {
            throw DiagnosticError(
              Diagnostic(
                .invalidExpectedValue, .error, "\(field.value): \(error.description)",
                at: value.span))
          }
        }
        expectedFieldText = expectedLetValue.map { Self.shown($0, as: type) }
        return
      }
      guard fields.contains(field.value) else {
        throw Self.unknown(
          field, among: fields + policy.checked.lets.map(\.name),
          what: "body field or let in \(policy.checked.source.path)")
      }
      expectedFieldText = try value.map { value throws(DiagnosticError) in
        try Self.normalise(value, for: field.value, store: store)
      }
    default:
      break
    }
  }

  /// What the clause expects, as a product owner would say it.
  var expected: String {
    switch expectation.kind {
    case .choose(let choice): "refund \(choice.value)"
    case .replyWithoutChoice: "share data only"
    case .withholdReply: "do not respond"
    case .holdForReview: "hold for review"
    case .noReply: "no reply"
    case .rule(let name): "decided by rule \"\(name.value)\""
    case .otherwise: "decided by otherwise"
    case .field(let field, _):
      "\(field.value) "
        + (expectedFieldText.map { "= \($0)" } ?? (checkedLet == nil ? "is missing" : "is unknown"))
    }
  }

  /// What came out, in the terms of the clause; nil when the decision meets it.
  func mismatch(_ decision: Decision) -> String? {
    let outcome = Self.outcome(decision)
    switch expectation.kind {
    case .choose(let choice):
      return Self.preference(decision) == choice.value && !decision.isSkip ? nil : outcome
    case .replyWithoutChoice:
      // Google takes no answer without a preference: sharing data only sends NEUTRAL.
      let sent = decision.reply != nil && !decision.isSkip
      let without =
        decision.store == .googlePlay
        ? Self.preference(decision) == GooglePlayRefundPreference.neutral.rawValue
        : Self.preference(decision) == nil
      return sent && without ? nil : outcome
    case .withholdReply:
      // A rule that follows a fact says it only when the fact does.
      let followed: Bool
      if case .skip(.policyDoesNotRespond) = decision.action {
        followed = true
      } else {
        followed = false
      }
      let said = decision.ruleIndex.map(silentRules.contains) ?? silentOtherwise
      return (said || followed) && decision.isSkip ? nil : outcome
    case .holdForReview:
      return decision.action == .hold ? nil : outcome
    case .noReply:
      return decision.isSkip ? nil : outcome
    case .rule(let name):
      return decision.ruleIndex != nil && decision.rule == name.value ? nil : Self.decider(decision)
    case .otherwise:
      return decision.ruleIndex == nil ? nil : Self.decider(decision)
    case .field(let field, _) where checkedLet != nil:
      // A let is worked out from the request's facts whatever the decision, even when no rule
      // needed it, so a test can check the building blocks of a condition on their own.
      guard let (index, policy) = checkedLet else { return nil }
      let value = policy.checked.lets[index].value
      let actual = policy.value(of: value, facts: decision.facts.values)
      switch (actual, expectedLetValue) {
      case (nil, nil): return nil
      case (let actual?, let expected?) where Self.matches(actual, expected): return nil
      default: break
      }
      if let actual { return "\(field.value) = \(Self.shown(actual, as: value.type))" }
      // Why it has no value: a missing fact, or a division by zero, which is not one.
      let why = ConditionReader(policy: policy, facts: decision.facts.values).whyUnknown(value)
      return "\(field.value) is unknown" + (why.map { " (\($0))" } ?? "")
    case .field(let field, _):
      guard let reply = decision.reply, !decision.isSkip else { return outcome }
      let actual = Self.fieldText(field.value, reply)
      return actual == expectedFieldText
        ? nil : "\(field.value) " + (actual.map { "= \($0)" } ?? "is missing")
    }
  }

  /// Whether a let's value meets its expectation: equal as `==` compares (0.1 + 0.2 is 0.3); a
  /// time expected in whole seconds (as times are shown) is met by any time within that second.
  static func matches(_ actual: Value, _ expected: Value) -> Bool {
    if case .timestamp(let seconds) = actual, case .timestamp(let wanted) = expected,
      wanted == wanted.rounded(.down)
    {
      return seconds.rounded(.down) == wanted
    }
    return actual.isEqual(asTheLanguageCompares: expected)
  }

  /// A let's value in a failure: a time with a fraction of a second shows it, so a failure never
  /// shows the expected time as the actual one.
  static func shown(_ value: Value, as type: ValueType) -> String {
    // To the nearest millisecond, as written: 0.1 s is held as 0.0999… and must show as .100.
    guard case .timestamp(let seconds) = value, seconds.isFinite else {
      return value.glossed(as: type)
    }
    let milliseconds = (seconds * 1_000).rounded()
    let wholeSeconds = (milliseconds / 1_000).rounded(.down)
    let fraction = Int(milliseconds - wholeSeconds * 1_000)
    let whole = Value.timestamp(wholeSeconds).formatted(as: type)
    guard fraction != 0, whole.hasSuffix("Z") else { return whole }
    return whole.dropLast() + "." + String(1_000 + fraction).dropFirst() + "Z"
  }

  /// The decision's outcome in one phrase: `refund DECLINE`, `share data only, hold for review`, or why no reply.
  static func outcome(_ decision: Decision) -> String {
    switch decision.action {
    case .skip(.policyDoesNotRespond): return "do not respond"
    case .skip(let reason): return reason.description(body: decision.body)
    case .respond, .hold:
      let choice = preference(decision).map { "refund \($0)" } ?? "share data only"
      return decision.action == .hold ? choice + ", hold for review" : choice
    }
  }

  static func decider(_ decision: Decision) -> String {
    decision.ruleIndex == nil ? "decided by otherwise" : "decided by rule \"\(decision.rule)\""
  }

  /// The refund preference the decision's body or answer carries, in its store's words.
  static func preference(_ decision: Decision) -> String? {
    switch decision.reply {
    case .appStore(let body)?: body.refundPreference?.rawValue
    case .googlePlay(let answer)?: answer.refundPreference.rawValue
    case nil: nil
    }
  }

  /// The refund preferences of `store`, as tests write them.
  static func preferences(_ store: FactSchema.Store) -> [String] {
    store == .appStore
      ? RefundPreference.allCases.map(\.rawValue)
      : GooglePlayRefundPreference.allCases.map(\.rawValue)
  }

  /// A field's value as tests write it, in its store's reply; nil when the reply leaves it out.
  static func fieldText(_ field: String, _ reply: ReplyBody) -> String? {
    switch reply {
    case .appStore(let body): return fieldText(field, body)
    case .googlePlay(let answer):
      switch field {
      case "sampleContentProvided": return String(answer.sampleContentProvided)
      case "consumptionPercentage", "consumptionPercentageMilliunits":
        return answer.consumptionPercentageMilliunits.map(String.init)
      default: return answer.refundPreference.rawValue
      }
    }
  }

  /// A body field's value as tests write it; nil when the body leaves it out.
  static func fieldText(_ field: String, _ body: ConsumptionRequest) -> String? {
    switch field {
    case "customerConsented": String(body.customerConsented)
    case "deliveryStatus": body.deliveryStatus.rawValue
    case "sampleContentProvided": String(body.sampleContentProvided)
    case "consumptionPercentage": body.consumptionPercentage.map(String.init)
    default: body.refundPreference?.rawValue
    }
  }

  private static func normalise(
    _ value: TestValue, for field: String, store: FactSchema.Store
  ) throws(DiagnosticError) -> String {
    let text = value.text
    switch field == "consumptionPercentageMilliunits" ? "consumptionPercentage" : field {
    case "customerConsented", "sampleContentProvided":
      guard text == "true" || text == "false" else {
        throw invalid(value, "\(field) is true or false")
      }
      return text
    case "deliveryStatus":
      guard DeliveryStatus(rawValue: text) != nil else {
        throw unknown(
          Located(text, at: value.span), among: DeliveryStatus.allCases.map(\.rawValue),
          what: "delivery status")
      }
      return text
    case "consumptionPercentage":
      if text.hasSuffix("%"),
        case .percent(let percent)? = try? ValueParser.parse(text, as: .percent)
      {
        // The body holds whole milliunits: a finer percentage would pass against the rounded
        // one, hiding a typo (94.0004% for 94.004%).
        let milli = percent * 1_000
        guard abs(milli - milli.rounded()) < 1e-6 else {
          throw invalid(
            value,
            "consumptionPercentage is a whole number of milliunits (thousandths of a percent) "
              + "from 0% to 100%, such as 94.004%")
        }
        return String(BodyBuilder.milliunits(percent))
      }
      guard let milli = Int(text), (0...100_000).contains(milli) else {
        throw invalid(
          value,
          "consumptionPercentage is in milliunits from 0 to 100000 (40% is 40000), or a percentage such as 40%"
        )
      }
      // 1 to 100 milliunits (at most 0.1%) is far more likely a percentage whose sign was left
      // off, which would fail against the actual body with no word of why.
      if (1...100).contains(milli) {
        let share = Value.percent(Double(milli) / 1_000).formatted(as: .percent)
        throw DiagnosticError(
          Diagnostic(
            .invalidExpectedValue, .error, "consumptionPercentage = \(text) is \(share)",
            at: value.span,
            hint:
              "did you mean \(text)%? a bare number is milliunits (\(text) = \(share)); "
              + "to expect \(share), write \(share)"))
      }
      return text
    default:
      guard preferences(store).contains(text) else {
        throw unknown(
          Located(text, at: value.span), among: preferences(store), what: "refund preference")
      }
      return text
    }
  }

  private static func unknown(_ name: Located<String>, among candidates: [String], what: String)
    -> DiagnosticError
  {
    let hint =
      Suggestions.closest(to: name.value, among: candidates).map { "did you mean '\($0)'?" }
      ?? "expected one of: \(candidates.joined(separator: ", "))"
    return DiagnosticError(
      Diagnostic(.unknownName, .error, "unknown \(what) '\(name.value)'", at: name.span, hint: hint)
    )
  }

  private static func invalid(_ value: TestValue, _ message: String) -> DiagnosticError {
    DiagnosticError(
      Diagnostic(
        .invalidExpectedValue, .error, "'\(value.text)' does not fit: \(message)", at: value.span))
  }
}

/// A diagnostic thrown while validating a tests file.
struct DiagnosticError: Error {
  let diagnostic: Diagnostic

  init(_ diagnostic: Diagnostic) {
    self.diagnostic = diagnostic
  }
}

extension Decision {
  /// Whether nothing is sent for this decision.
  var isSkip: Bool {
    if case .skip = action { true } else { false }
  }
}
