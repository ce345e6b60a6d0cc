/// The sentences of `NoReplyCheck`: the consequence first (no reply is sent), then the store's
/// rule, and a hint that fits a rule (a condition to add) or `otherwise` (a rule to put above it).
extension NoReplyCheck {
  private var exemptNames: String { bounded.exemptCategories.joined(separator: " or ") }

  private var notExempt: String {
    bounded.exemptCategories.count == 1
      ? "\(bounded.categoryFact) != \(bounded.exemptCategories[0])"
      : "\(bounded.categoryFact) not in [\(bounded.exemptCategories.joined(separator: ", "))]"
  }

  private var isExempt: String {
    bounded.exemptCategories.count == 1
      ? "\(bounded.categoryFact) == \(bounded.exemptCategories[0])"
      : "\(bounded.categoryFact) in [\(bounded.exemptCategories.joined(separator: ", "))]"
  }

  private var field: String { bounded.overridingField }
  private var store: String { policy.schema.vocabulary.store }
  private var chooseWord: String { policy.schema.vocabulary.choose.text }
  private var deliveryField: String { bounded.requiredField ?? bounded.requiredFact }

  /// The choice with the percentage set to 0% or 100% (or beyond): refused for every request.
  func choiceWithPercent(_ percent: Double, _ subject: Subject, at span: SourceSpan?)
    -> Diagnostic
  {
    let value = Value.percent(percent).formatted(as: .percent)
    return Diagnostic(
      .proratedWithoutUsageBound, .warning,
      "\(subject.what) prefers \(bounded.choice) but sets \(field) to \(value), so Reckon never "
        + "sends a reply for it: \(store) refuses \(bounded.choice) unless \(field) is strictly "
        + "between 0% and 100%, and takes no \(field) for \(exemptNames) products",
      at: span ?? subject.span,
      hint: "set a percentage strictly between 0% and 100%, or prefer another \(chooseWord)")
  }

  /// The choice with the delivery set to a value other than the required one: the percentage is
  /// then 0%, which the choice does not take.
  func choiceUndelivered(_ value: String, _ subject: Subject) -> Diagnostic {
    Diagnostic(
      .proratedWithoutUsageBound, .warning,
      "\(subject.what) prefers \(bounded.choice) but sets \(deliveryField) to \(value), so Reckon "
        + "sends no reply to a request it decides unless \(bounded.categoryFact) is "
        + "\(exemptNames): a purchase not \(bounded.requiredValue) is sent with \(field) 0%, and "
        + "\(store) refuses \(bounded.choice) unless \(field) is strictly between 0% and 100%",
      at: subject.span,
      hint:
        "prefer another \(chooseWord) for a purchase not \(bounded.requiredValue), or remove the set"
    )
  }

  /// The choice reachable for a request not delivered, or with the bounded fact missing, 0% or 100%.
  func choiceUnbounded(_ subject: Subject, undelivered: Bool, unbounded: Bool) -> Diagnostic {
    let hint: String
    if subject.isOtherwise {
      var cases: [String] = []
      if undelivered { cases.append("\(bounded.requiredFact) != \(bounded.requiredValue)") }
      if unbounded {
        cases.append("\(bounded.boundedFact) is not strictly between 0% and 100%")
      }
      hint =
        "put a rule above 'otherwise' for requests where \(cases.joined(separator: " or ")), "
        + "or prefer another \(chooseWord) in 'otherwise'"
    } else {
      var parts: [String] = []
      if undelivered { parts.append("\(bounded.requiredFact) == \(bounded.requiredValue)") }
      if unbounded {
        parts.append("\(bounded.boundedFact) > 0% and \(bounded.boundedFact) < 100%")
      }
      hint = "add \(parts.joined(separator: " and ")) to the condition"
    }
    return Diagnostic(
      .proratedWithoutUsageBound, .warning,
      // The consequence first: the body is built, the store's rules refuse it, nothing is sent.
      "\(subject.what) prefers \(bounded.choice), but Reckon sends no reply to a request it "
        + "decides unless \(bounded.requiredFact) is \(bounded.requiredValue) and "
        + "\(bounded.boundedFact) is strictly between 0% and 100% (or \(bounded.categoryFact) is "
        + "\(exemptNames)): \(store) refuses \(bounded.choice) otherwise",
      at: subject.span, hint: hint)
  }

  /// A `set` of the percentage reachable for an exempt category, or other than 0% for a purchase
  /// not delivered.
  func percentRefused(_ reply: Reply, _ subject: Subject, forExempt: Bool, undelivered: Bool)
    -> Diagnostic
  {
    let span = reply.percentSpan ?? subject.span
    if forExempt && subject.onlyExempt {
      return Diagnostic(
        .percentageAppleRefuses, .warning,
        "\(subject.what) sets \(field) for \(exemptNames) products only, so Reckon never sends "
          + "a reply for it: \(store) takes no \(field) for them",
        at: span, hint: "remove the set; without it Reckon leaves the field out for these products")
    }
    var value = ""
    if case .constant(let percent) = reply.percent {
      value = " to " + Value.percent(percent).formatted(as: .percent)
    }
    if undelivered, case .other(let delivery) = reply.delivery {
      // The rule's own `set` makes the purchase undelivered: a condition cannot help.
      let when =
        value == ""
        ? "sends no reply when \(bounded.boundedFact) is above 0%" : "never sends a reply for it"
      return Diagnostic(
        .percentageAppleRefuses, .warning,
        "\(subject.what) sets \(deliveryField) to \(delivery) and \(field)\(value), so Reckon "
          + "\(when): \(store) takes only 0% for a purchase not \(bounded.requiredValue), and no "
          + "\(field) for \(exemptNames) products",
        at: span,
        hint: "remove the set of \(field): Reckon sends 0% for a purchase not "
          + bounded.requiredValue)
    }
    var cases: [String] = []
    if forExempt {
      cases.append("\(bounded.categoryFact) is \(exemptNames) (\(store) takes no \(field) then)")
    }
    if undelivered {
      cases.append(
        "\(bounded.requiredFact) is not \(bounded.requiredValue) (\(store) takes only 0% then)")
    }
    return Diagnostic(
      .percentageAppleRefuses, .warning,
      "\(subject.what) sets \(field)\(value), so Reckon sends no reply when it decides a "
        + "request whose " + cases.joined(separator: " or whose "),
      at: span, hint: percentHint(subject, forExempt: forExempt, undelivered: undelivered))
  }

  private func percentHint(_ subject: Subject, forExempt: Bool, undelivered: Bool) -> String {
    if subject.isOtherwise {
      var cases: [String] = []
      if forExempt { cases.append(isExempt) }
      if undelivered { cases.append("\(bounded.requiredFact) != \(bounded.requiredValue)") }
      return "put a rule above 'otherwise' for requests where "
        + "\(cases.joined(separator: " or ")), or remove the set"
    }
    var parts: [String] = []
    if forExempt { parts.append(notExempt) }
    if undelivered { parts.append("\(bounded.requiredFact) == \(bounded.requiredValue)") }
    return "add \(parts.joined(separator: " and ")) to the condition, or decide those requests "
      + "in a rule above it"
  }
}
