/// Typing, name resolution and constant folding of expressions.
extension Checker {
  /// Checks an expression. `expected` lets a bare enum value such as `DELIVERED` find its type;
  /// `context` names what it is compared with, for messages. Nil means an error was reported.
  mutating func checkExpression(
    _ expression: Expression, expected: ValueType?, context: String? = nil
  )
    -> ResolvedExpression?
  {
    let span = expression.span
    switch expression.kind {
    case .invalid:
      return nil
    case .literal(let literal):
      return checkLiteral(literal, span)
    case .name(let name):
      return resolveName(name, span, expected: expected, context: context)
    case .negate(let operand):
      guard let value = checkExpression(operand, expected: nil) else { return nil }
      guard [.number, .percent, .money, .duration].contains(value.type) else {
        report(.invalidOperand, "\(value.type.withArticle) cannot be negated", at: span)
        return nil
      }
      return fold(node(.negate(value), value.type, span))
    case .not(let operand):
      guard let value = checkCondition(operand, what: "the operand of 'not'") else { return nil }
      return fold(node(.not(value), .boolean, span))
    case .binary(let op, let left, let right):
      return checkBinary(op, left, right, span)
    case .compare(let op, let left, let right):
      return checkComparison(op, left, right, span)
    case .membership(let negated, let subject, let elements):
      return checkMembership(negated, subject, elements, span)
    case .namedMembership(let negated, let subject, let name):
      guard let elements = namedList(name) else { return nil }
      return checkMembership(negated, subject, elements, span, named: name)
    case .missingTest(let negated, let subject):
      guard let value = checkExpression(subject, expected: nil) else { return nil }
      return node(.missingTest(negated: negated, value), .boolean, span)
    case .call(let name, let arguments):
      return checkCall(name, arguments, span)
    case .list:
      report(.listOutsideIn, "a list can only follow 'in' or 'not in'", at: span)
      return nil
    }
  }

  private mutating func checkLiteral(_ literal: Literal, _ span: SourceSpan) -> ResolvedExpression?
  {
    switch literal {
    case .boolean(let flag): return constant(.boolean(flag), .boolean, span)
    case .number(let number): return constant(.number(number), .number, span)
    case .percent(let percent):
      guard percent <= 100 else {
        report(.percentOutOfRange, "a percentage is between 0% and 100%", at: span)
        return nil
      }
      return constant(.percent(percent), .percent, span)
    case .money(let milli, let currency):
      return constant(.money(milli, currency: currency), .money, span)
    case .duration(let seconds, _, _): return constant(.duration(seconds), .duration, span)
    case .text(let text): return constant(.text(text), .text, span)
    case .timestamp(let seconds, _): return constant(.timestamp(seconds), .timestamp, span)
    }
  }

  /// Whether the let `declared` is defined above the use of `name` at `span`; reports it if not.
  private mutating func isDefined(
    _ declared: (index: Int, span: SourceSpan), _ name: String, at span: SourceSpan
  ) -> Bool {
    guard declared.index >= letsDefined else { return true }
    let line = source.location(of: declared.span.start).line
    report(
      .letUsedBeforeDefinition, "'\(name)' is used before it is defined on line \(line)",
      at: span, hint: "move the 'let' above its first use")
    return false
  }

  /// The items of the list `name` names, for `x in name`; nil (with the error reported) when
  /// it names no list defined above.
  mutating func namedList(_ name: Located<String>) -> [Expression]? {
    guard let declared = declaredLets[name.value] else {
      let lists = namedLists.keys.sorted().map { lets[$0].name }
      let hint =
        Suggestions.closest(to: name.value, among: lists).map { "did you mean '\($0)'?" }
        ?? "a list is written in brackets, even of one value: in [\(name.value)]"
      report(
        .expectedList, "expected '[' to start a list, found '\(name.value)'", at: name.span,
        hint: hint)
      return nil
    }
    usedLets.insert(declared.index)
    guard isDefined(declared, name.value, at: name.span) else { return nil }
    guard !failedLets.contains(declared.index) else { return nil }
    guard let elements = namedLists[declared.index] else {
      report(
        .notAList, "'\(name.value)' is a value, not a list", at: name.span,
        hint:
          "compare with it, as in == \(name.value), or write a list in brackets: in [\(name.value)]"
      )
      return nil
    }
    return elements
  }

  /// Whether a name is a bare word that is neither a let nor a fact, so it can only be an enum value.
  func isSymbol(_ expression: Expression) -> Bool {
    guard case .name(let name) = expression.kind else { return false }
    return declaredLets[name] == nil && schema.fact(named: name) == nil && !name.contains(".")
  }

  private mutating func resolveName(
    _ name: String, _ span: SourceSpan, expected: ValueType?, context: String?
  )
    -> ResolvedExpression?
  {
    if let declared = declaredLets[name] {
      guard isDefined(declared, name, at: span) else { return nil }
      usedLets.insert(declared.index)
      guard !failedLets.contains(declared.index) else { return nil }
      guard namedLists[declared.index] == nil else {
        report(
          .namedListOutsideIn, "'\(name)' is a list: it can only follow 'in' or 'not in'",
          at: span,
          hint:
            "test a value against it, as in \(context ?? schema.vocabulary.examples.enumFact) in \(name)"
        )
        return nil
      }
      let value = lets[declared.index].value
      if let known = value.constantValue { return constant(known, value.type, span) }
      return node(.letReference(index: declared.index), value.type, span)
    }
    if let slot = schema.slot(ofFact: name) {
      return node(.fact(slot: slot), schema.facts[slot].type, span)
    }
    // The lexer already said a name with letters outside ASCII cannot be read.
    guard name.utf8.allSatisfy({ $0 < 0x80 }) else { return nil }
    if name.contains(".") {
      if name.hasPrefix("custom.") {
        guard unknownCustomFacts.insert(name).inserted else { return nil }
      }
      let hint =
        Suggestions.closest(to: name, among: schema.facts.map(\.name)).map {
          "did you mean '\($0)'?"
        }
        ?? (name.hasPrefix("custom.")
          ? "declare it under customFacts of a fact source in reckon.json; reckon check and reckon test know it with --config reckon.json"
          : expected == .text && !isFactNamespace(name)
            ? "text is written in quotes, as in \"\(name)\"" : nil)
      report(.unknownFact, "unknown fact '\(name)'", at: span, hint: hint)
      return nil
    }
    if case .enumeration(let enumType) = expected {
      if let ordinal = enumType.ordinal(of: name) {
        return constant(.enumeration(ordinal), expected!, span)
      }
      // A value cut short (`UNINTENDED`) is too far from its whole name for a spelling match.
      let extended = enumType.cases.filter { $0.hasPrefix(name + "_") }
      var hint =
        (Suggestions.closest(to: name, among: enumType.cases)
        ?? (extended.count == 1 ? extended[0] : nil)).map { "did you mean '\($0)'?" }
        ?? "expected one of \(enumType.cases.joined(separator: ", "))"
      if let other = factHavingValue(name) {
        // The value is right but the fact is not: `reason == DELIVERED` meant delivery.status.
        hint = "\(name) is a value of \(other); " + hint
      } else if let otherWord = schema.vocabulary.otherWords[name] {
        hint = otherWord
      }
      report(
        .unknownEnumValue, "unknown value '\(name)' for \(context ?? enumType.name)", at: span,
        hint: hint)
      return nil
    }
    reportUnknownName(name, span)
    return nil
  }

  /// Every value of the schema's enumeration facts.
  var enumCases: [String] {
    schema.facts.flatMap { fact -> [String] in
      if case .enumeration(let type) = fact.type { return type.cases }
      return []
    }
  }

  private mutating func reportUnknownName(_ name: String, _ span: SourceSpan) {
    let enumCases = self.enumCases
    let candidates = Array(declaredLets.keys) + schema.facts.map(\.name) + enumCases
    if enumCases.contains(name) {
      report(
        .bareEnumValue, "'\(name)' is a value, but nothing here says what it is a value of",
        at: span,
        hint:
          "compare it with a fact, as in \(factHavingValue(name) ?? schema.vocabulary.examples.enumFact) == \(name)"
      )
    } else if CurrencyCodes.isKnown(name) {
      report(
        .unknownName, "unknown name '\(name)'", at: span,
        hint: "a currency follows its amount, as in 2 \(name)")
    } else {
      let hint = Suggestions.closest(to: name, among: candidates).map { "did you mean '\($0)'?" }
      report(.unknownName, "unknown name '\(name)'", at: span, hint: hint)
    }
  }

  /// Whether a dotted name starts as one of the schema's facts does (`customer.`, `usage.` …),
  /// so an unknown one is a fact misnamed rather than text written without quotes
  /// (`com.example.coins`).
  private func isFactNamespace(_ name: String) -> Bool {
    guard let dot = name.firstIndex(of: ".") else { return false }
    let namespace = name[...dot]
    return schema.facts.contains { $0.name.hasPrefix(namespace) }
  }

  private mutating func checkBinary(
    _ op: BinaryOperator, _ left: Expression, _ right: Expression, _ span: SourceSpan
  )
    -> ResolvedExpression?
  {
    if op == .and || op == .or {
      let lhs = checkCondition(left, what: "the left side of '\(op.rawValue)'")
      let rhs = checkCondition(right, what: "the right side of '\(op.rawValue)'")
      guard let lhs, let rhs else { return nil }
      return fold(node(op == .and ? .and(lhs, rhs) : .or(lhs, rhs), .boolean, span))
    }
    let lhs = checkExpression(left, expected: nil)
    let rhs = checkExpression(right, expected: nil)
    guard let lhs, let rhs else { return nil }
    let arithmetic = ArithmeticOperator(rawValue: op.rawValue)!
    guard let type = ValueOperations.resultType(arithmetic, lhs.type, rhs.type) else {
      report(
        .operatorTypeMismatch,
        "cannot apply '\(op.rawValue)' to \(lhs.type.withArticle) and \(rhs.type.withArticle)",
        at: span,
        hint: percentHint(lhs, rhs, example: 10) ?? arithmeticHint(arithmetic, lhs.type, rhs.type))
      return nil
    }
    if let (a, b) = currencyConflict([lhs, rhs]) {
      report(
        .currencyMismatch, "cannot combine \(a) with \(b)", at: span,
        hint: "write both amounts in the same currency")
      return nil
    }
    if arithmetic == .divide, let divisor = rhs.constantValue, ValueOperations.isZero(divisor) {
      report(.divisionByZero, "division by zero", at: right.span)
      return nil
    }
    return fold(node(.arithmetic(arithmetic, lhs, rhs), type, span))
  }

  /// For a number met with a percent, which of the two to rewrite: a number written out
  /// (`80`, `0.8`) as the percentage it means; a percentage written out against a number worked
  /// out (`refunded / spent > 50%`, a ratio) as the number; nil when it is neither.
  private func percentHint(_ lhs: ResolvedExpression, _ rhs: ResolvedExpression, example: Int)
    -> String?
  {
    var (number, percent) = lhs.type == .number ? (lhs, rhs) : (rhs, lhs)
    guard number.type == .number, percent.type == .percent else { return nil }
    // `let ratio = a / b` then `ratio > 50%`: the let's value says what the number is.
    while case .letReference(let index) = number.kind, index < lets.count {
      number = lets[index].value
    }
    if case .number(let written)? = number.constantValue {
      // 0.8 is most likely a fraction: 80%, not 0.8%.
      let meant = written > 0 && written < 1 ? Value.percentage(ofFraction: written) : written
      return "write the number as a percentage: \(Value.formatNumber(meant))%"
    }
    if case .percent(let written)? = percent.constantValue {
      let share = Value.formatNumber(Value.fraction(ofPercentage: written))
      // A share worked out ×100 already (`a * 100 / b`) is compared with the bare number; one
      // worked out as a fraction (`a / b`) with the fraction; a count with a count.
      if Self.scaledByHundred(number) {
        return "the number is already ×100: drop the %, as in > \(Value.formatNumber(written))"
      }
      if case .arithmetic(.divide, _, _) = number.kind {
        return "a ratio is a number: write \(Value.formatNumber(written))% as \(share)"
      }
      return "this is a number, not a percentage: compare it with a number, as in > 2"
    }
    return "write the number as a percentage, as in \(example)%"
  }

  /// Whether `expression` multiplies by 100 in its chain of `*` and `/` (`a * 100 / b`).
  private static func scaledByHundred(_ expression: ResolvedExpression) -> Bool {
    guard case .arithmetic(let op, let left, let right) = expression.kind,
      op == .multiply || op == .divide
    else { return false }
    let hundred = { (side: ResolvedExpression) in
      if case .number(100)? = side.constantValue { true } else { false }
    }
    return (op == .multiply && (hundred(left) || hundred(right)))
      || scaledByHundred(left) || (op == .multiply && scaledByHundred(right))
  }

  private func arithmeticHint(_ op: ArithmeticOperator, _ left: ValueType, _ right: ValueType)
    -> String?
  {
    switch (left, right) {
    case (.timestamp, .timestamp) where op == .add:
      "subtract timestamps to get a duration, as in now - purchase.date"
    default: nil
    }
  }

  private mutating func checkComparison(
    _ op: ComparisonOperator, _ left: Expression, _ right: Expression, _ span: SourceSpan
  ) -> ResolvedExpression? {
    let (lhs, rhs) = checkOperandPair(left, right)
    guard let lhs, let rhs else { return nil }
    guard comparable(op, lhs.type, rhs.type) else {
      report(
        .typeMismatch, comparisonMessage(op, lhs.type, rhs.type), at: span,
        hint: quotedValueHint(right, against: lhs.type) ?? quotedValueHint(left, against: rhs.type)
          ?? percentHint(lhs, rhs, example: 80) ?? comparisonHint(lhs.type, rhs.type))
      return nil
    }
    if let (a, b) = currencyConflict([lhs, rhs]), !schema.currencyRates.connects(a, b) {
      report(
        .currencyMismatch, "cannot compare \(a) with \(b)", at: span,
        hint:
          "compare amounts in the same currency, or give both a rate under currencies in reckon.json"
      )
      return nil
    }
    checkPercentRanges([lhs, rhs])
    return fold(node(.compare(op, lhs, rhs), .boolean, span))
  }

  /// Checks two operands, letting a bare enum value take its type from the other side.
  private mutating func checkOperandPair(_ left: Expression, _ right: Expression) -> (
    ResolvedExpression?, ResolvedExpression?
  ) {
    if isSymbol(left), !isSymbol(right) {
      let rhs = checkExpression(right, expected: nil)
      guard let rhs else { return (nil, nil) }
      return (checkExpression(left, expected: rhs.type, context: describe(right, rhs)), rhs)
    }
    let lhs = checkExpression(left, expected: nil)
    guard let lhs else {
      _ = isSymbol(right) ? nil : checkExpression(right, expected: nil)
      return (nil, nil)
    }
    return (lhs, checkExpression(right, expected: lhs.type, context: describe(left, lhs)))
  }

  /// How a message names an operand: the fact's or let's name, else its type.
  func describe(_ expression: Expression, _ resolved: ResolvedExpression) -> String {
    if case .name(let name) = expression.kind { return name }
    return resolved.type.description
  }

  private func comparable(_ op: ComparisonOperator, _ left: ValueType, _ right: ValueType) -> Bool {
    guard left == right else { return false }
    switch op {
    case .equal, .notEqual: return true
    case .less, .lessOrEqual, .greater, .greaterOrEqual: return left.isOrdered
    case .startsWith, .endsWith, .contains: return left == .text
    }
  }

  private func comparisonMessage(_ op: ComparisonOperator, _ left: ValueType, _ right: ValueType)
    -> String
  {
    if left == right { return "'\(op.rawValue)' does not apply to \(left.withArticle)" }
    return "cannot compare \(left.withArticle) with \(right.withArticle)"
  }

  /// "Drop the quotes" for text that names a value of the enumeration it is compared with, as in
  /// `reason == "LEGAL"`: a value is written bare, and quotes make it text.
  func quotedValueHint(_ expression: Expression, against type: ValueType) -> String? {
    guard case .enumeration(let enumType) = type, case .literal(.text(let text)) = expression.kind
    else { return nil }
    let spelled = String(text.uppercased().map { $0 == " " ? "_" : $0 })
    guard enumType.cases.contains(spelled) else { return nil }
    return "drop the quotes: write \(spelled), not \"\(text)\""
  }

  /// The first fact of enumeration `type`, to show in a hint.
  private func factOfType(_ type: EnumType) -> String? {
    schema.facts.first { $0.type == .enumeration(type) }?.name
  }

  private func comparisonHint(_ left: ValueType, _ right: ValueType) -> String? {
    for side in [left, right] {
      guard case .enumeration(let type) = side else { continue }
      let values =
        type.cases.prefix(3).joined(separator: ", ") + (type.cases.count > 3 ? ", …" : "")
      let fact = factOfType(type) ?? schema.vocabulary.examples.enumFact
      if left == right {
        return
          "\(side.withArticle) has no order: compare it with == or !=, or list the values that qualify, as in \(fact) in [\(type.cases.prefix(2).joined(separator: ", "))]"
      }
      return
        "\(side.withArticle) is one of \(values): compare it with one, as in \(fact) == \(type.cases.first ?? "")"
    }
    let hint: String? =
      switch (left, right) {
      case (.duration, .number), (.number, .duration): "give the number a unit, as in 90 days"
      case (.money, .number), (.number, .money): "give the number a currency, as in 4.99 USD"
      case (.timestamp, .duration), (.duration, .timestamp):
        "compare how long ago it was, as in now - purchase.date > 30 days"
      case (.timestamp, .text), (.text, .timestamp):
        "a date is written without quotes, as in purchase.date >= 2026-11-01, and how long ago "
          + "with now, as in now - purchase.date > 30 days"
      default: nil
      }
    return hint
  }
}
