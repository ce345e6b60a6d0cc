import Foundation

/// Expressions, from lowest to highest precedence: `or`, `and`, `not`, comparisons, `+ -`, `* /`,
/// unary minus, then literals, names, calls, lists and parentheses.
extension Parser {
  static let durationUnits: [String: Double] = [
    "second": 1, "seconds": 1, "minute": 60, "minutes": 60, "hour": 3_600, "hours": 3_600,
    "day": 86_400, "days": 86_400, "week": 604_800, "weeks": 604_800,
  ]

  mutating func parseExpressionOrInvalid() -> Expression {
    let start = cursor.current.span
    do {
      return try parseExpression()
    } catch {
      return Expression(kind: .invalid, span: start)
    }
  }

  /// Parses one whole expression.
  mutating func parseExpression() throws(ParseAbort) -> Expression {
    try enterNesting(at: cursor.current.span)
    defer { leaveNesting() }
    return try parseOr()
  }

  private mutating func parseOr() throws(ParseAbort) -> Expression {
    var left = try parseAnd()
    var links = 0
    defer { leaveNesting(links) }
    while cursor.isWord("or") {
      try enterNesting(at: cursor.advance().span, chain: ("or", links))
      links += 1
      let right = try parseAnd()
      left = Expression(kind: .binary(.or, left, right), span: left.span.merged(with: right.span))
    }
    return left
  }

  private mutating func parseAnd() throws(ParseAbort) -> Expression {
    var left = try parseNot()
    var links = 0
    defer { leaveNesting(links) }
    while cursor.isWord("and") {
      try enterNesting(at: cursor.advance().span, chain: ("and", links))
      links += 1
      let right = try parseNot()
      left = Expression(kind: .binary(.and, left, right), span: left.span.merged(with: right.span))
    }
    return left
  }

  private mutating func parseNot() throws(ParseAbort) -> Expression {
    guard cursor.isWord("not") else { return try parseComparison() }
    let start = cursor.advance().span
    try enterNesting(at: start)
    defer { leaveNesting() }
    let operand = try parseNot()
    return Expression(kind: .not(operand), span: start.merged(with: operand.span))
  }

  private mutating func parseComparison() throws(ParseAbort) -> Expression {
    let left = try parseAdditive()
    guard let comparison = try parseComparisonTail(after: left) else { return left }
    if comparisonOperator() != nil || cursor.isWord("in") || cursor.isWord("is") {
      report(
        .chainedComparison, "comparisons cannot be chained", at: cursor.current.span,
        hint: "join two comparisons with 'and', as in a > 1 and a < 5")
      throw ParseAbort()
    }
    return comparison
  }

  private mutating func parseComparisonTail(after left: Expression) throws(ParseAbort)
    -> Expression?
  {
    if let (op, length) = comparisonOperator() {
      for _ in 0..<length { cursor.advance() }
      let right = try parseAdditive()
      return Expression(kind: .compare(op, left, right), span: left.span.merged(with: right.span))
    }
    if cursor.kind == .assign {
      // Read as the comparison it was meant to be, so the mistake is one error where it was made.
      let sign = cursor.advance()
      report(
        .assignmentInCondition, "'=' gives a value; it does not compare", at: sign.span,
        hint: "to compare, write ==")
      let right = try parseAdditive()
      return Expression(
        kind: .compare(.equal, left, right), span: left.span.merged(with: right.span))
    }
    if cursor.isWord("in")
      || (cursor.isWord("not") && cursor.peek().kind == .identifier && cursor.peek().text == "in")
    {
      let negated = cursor.isWord("not")
      if negated { cursor.advance() }
      cursor.advance()
      // A single name, not one of several without brackets: the list a `let` names.
      if cursor.kind == .identifier, !Parser.reservedWords.contains(cursor.current.text),
        cursor.peek().kind != .comma, cursor.peek().kind != .leftParen
      {
        let name = cursor.advance()
        return Expression(
          kind: .namedMembership(negated: negated, left, Located(name.text, at: name.span)),
          span: left.span.merged(with: name.span))
      }
      let list = try parseList()
      guard case .list(let elements) = list.kind else { return nil }
      return Expression(
        kind: .membership(negated: negated, left, elements), span: left.span.merged(with: list.span)
      )
    }
    if cursor.isWord("is") {
      cursor.advance()
      let negated = cursor.isWord("not")
      if negated { cursor.advance() }
      let word = cursor.current
      try expectWord("missing", hint: misspelt("missing") ?? afterIs(negated: negated))
      return Expression(
        kind: .missingTest(negated: negated, left), span: left.span.merged(with: word.span))
    }
    return nil
  }

  /// The hint for a word after `is` (or `is not`) other than `missing`: the missing test in
  /// other words (`is null`, `is set`), a list (`is in [...]`), or a value compared in words
  /// (`reason is LEGAL`).
  private func afterIs(negated: Bool) -> String? {
    guard cursor.kind == .identifier else { return nil }
    let word = cursor.current.text
    switch word.lowercased() {
    case "null", "nil", "none", "empty", "blank", "undefined", "unknown":
      return "write \(negated ? "is not missing" : "is missing")"
    case "set", "defined", "present", "known", "given":
      return "write \(negated ? "is missing" : "is not missing")"
    case "in": return "drop 'is': write \(negated ? "not in" : "in") […]"
    case "true", "false":
      return "'is' tests for a missing fact (is missing, is not missing); to compare with a "
        + "value, write \(negated ? "!=" : "==") \(word.lowercased())"
    default:
      guard !Parser.reservedWords.contains(word.lowercased()) else { return nil }
      return "'is' tests for a missing fact (is missing, is not missing); to compare with a "
        + "value, write \(negated ? "!=" : "==") \(word)"
    }
  }

  /// The comparison operator at the cursor and how many tokens it takes.
  private func comparisonOperator() -> (ComparisonOperator, Int)? {
    switch cursor.kind {
    case .equal: return (.equal, 1)
    case .notEqual: return (.notEqual, 1)
    case .less: return (.less, 1)
    case .lessOrEqual: return (.lessOrEqual, 1)
    case .greater: return (.greater, 1)
    case .greaterOrEqual: return (.greaterOrEqual, 1)
    case .identifier:
      let next = cursor.peek()
      let followedByWith = next.kind == .identifier && next.text == "with"
      if cursor.current.text == "starts", followedByWith { return (.startsWith, 2) }
      if cursor.current.text == "ends", followedByWith { return (.endsWith, 2) }
      if cursor.current.text == "contains" { return (.contains, 1) }
      return nil
    default: return nil
    }
  }

  private mutating func parseAdditive() throws(ParseAbort) -> Expression {
    var left = try parseMultiplicative()
    var links = 0
    defer { leaveNesting(links) }
    while cursor.kind == .plus || cursor.kind == .minus {
      let op: BinaryOperator = cursor.kind == .plus ? .add : .subtract
      try enterNesting(at: cursor.advance().span)
      links += 1
      let right = try parseMultiplicative()
      left = Expression(kind: .binary(op, left, right), span: left.span.merged(with: right.span))
    }
    return left
  }

  private mutating func parseMultiplicative() throws(ParseAbort) -> Expression {
    var left = try parseUnary()
    var links = 0
    defer { leaveNesting(links) }
    while cursor.kind == .star || cursor.kind == .slash {
      let op: BinaryOperator = cursor.kind == .star ? .multiply : .divide
      try enterNesting(at: cursor.advance().span)
      links += 1
      let right = try parseUnary()
      left = Expression(kind: .binary(op, left, right), span: left.span.merged(with: right.span))
    }
    return left
  }

  private mutating func parseUnary() throws(ParseAbort) -> Expression {
    guard cursor.kind == .minus else { return try parsePrimary() }
    let start = cursor.advance().span
    try enterNesting(at: start)
    defer { leaveNesting() }
    let operand = try parseUnary()
    return Expression(kind: .negate(operand), span: start.merged(with: operand.span))
  }

  private mutating func parsePrimary() throws(ParseAbort) -> Expression {
    let token = cursor.current
    switch token.kind {
    case .number:
      return try parseNumberLiteral()
    case .string:
      cursor.advance()
      return Expression(kind: .literal(.text(token.text)), span: token.span)
    case .timestamp:
      cursor.advance()
      return parseTimestamp(token)
    case .leftParen:
      cursor.advance()
      let inner = try parseExpression()
      try expect(.rightParen, "')'")
      return Expression(
        kind: inner.kind,
        span: token.span.merged(
          with: SourceSpan(start: cursor.previousEnd, end: cursor.previousEnd)))
    case .leftBracket:
      let list = try parseList()
      report(
        .listOutsideIn, "a list can only follow 'in' or 'not in'", at: list.span,
        hint: "write, for example, reason in [LEGAL, OTHER]")
      throw ParseAbort()
    case .identifier
    where !Parser.reservedWords.contains(token.text) || token.text == "true"
      || token.text == "false":
      return try parseName()
    default:
      report(
        .expectedExpression, "expected a value or a condition, found \(token.quoted)",
        at: token.span,
        hint: token.text == "missing"
          ? "a missing fact is tested with 'is missing' or 'is not missing', as in \(vocabulary.examples.optionalFact) is missing"
          : nil)
      throw ParseAbort()
    }
  }

  private mutating func parseName() throws(ParseAbort) -> Expression {
    let token = cursor.advance()
    if token.text == "true" || token.text == "false" {
      return Expression(kind: .literal(.boolean(token.text == "true")), span: token.span)
    }
    guard cursor.kind == .leftParen else {
      return Expression(kind: .name(token.text), span: token.span)
    }
    cursor.advance()
    var arguments: [Expression] = []
    if cursor.kind != .rightParen {
      arguments.append(try parseExpression())
      while cursor.kind == .comma {
        cursor.advance()
        arguments.append(try parseExpression())
      }
    }
    try expect(.rightParen, "')' after the arguments")
    return Expression(
      kind: .call(Located(token.text, at: token.span), arguments),
      span: SourceSpan(start: token.span.start, end: cursor.previousEnd))
  }

  /// The values written where a list was expected (`LEGAL, OTHER`), for the hint to put in
  /// brackets, all of them.
  private func valuesWithoutBrackets() -> String {
    var values = [cursor.current.text]
    var distance = 1
    while cursor.peek(distance).kind == .comma, cursor.peek(distance + 1).kind == .identifier {
      values.append(cursor.peek(distance + 1).text)
      distance += 2
    }
    return values.joined(separator: ", ")
  }

  /// A list as a let's value, or an invalid node where it could not be read.
  mutating func parseListOrInvalid() -> Expression {
    let start = cursor.current.span
    do {
      return try parseList()
    } catch {
      return Expression(kind: .invalid, span: start)
    }
  }

  private mutating func parseList() throws(ParseAbort) -> Expression {
    guard cursor.kind == .leftBracket else {
      report(
        .expectedList, "expected '[' to start a list, found \(cursor.current.quoted)",
        at: cursor.current.span,
        hint: cursor.kind == .identifier
          ? "a list is written in brackets, even of one value: in [\(valuesWithoutBrackets())]"
          : nil)
      throw ParseAbort()
    }
    let open = cursor.advance()
    var elements: [Expression] = []
    while cursor.kind != .rightBracket {
      elements.append(try parseExpression())
      guard cursor.kind == .comma else { break }
      cursor.advance()
    }
    try expect(.rightBracket, "',' or ']' in the list")
    return Expression(
      kind: .list(elements), span: SourceSpan(start: open.span.start, end: cursor.previousEnd))
  }

  /// A date literal: a whole UTC day, or a time with its zone; every date is UTC.
  private mutating func parseTimestamp(_ token: Token) -> Expression {
    do {
      let seconds = try TimestampText.seconds(token.text)
      return Expression(kind: .literal(.timestamp(seconds, written: token.text)), span: token.span)
    } catch {
      let hint =
        error == .noTimeZone
        ? "there is no local time: add the zone, as in \(token.text)Z"
        : "a date is a real day, written 2026-11-01, or a UTC time, written 2026-11-01T10:00:00Z"
      report(.invalidDate, "'\(token.text)' is not a date", at: token.span, hint: hint)
      return Expression(kind: .invalid, span: token.span)
    }
  }

  private mutating func parseNumberLiteral() throws(ParseAbort) -> Expression {
    let token = cursor.advance()
    let literal = try parseNumberWithUnit(token)
    // The lexer already reported a malformed number (empty text); stand in for it without a value.
    if token.text.isEmpty { return Expression(kind: .invalid, span: literal.span) }
    guard case .literal(let value) = literal.kind,
      let problem = Parser.unrepresentable(value, written: token.text)
    else { return literal }
    report(
      .invalidNumber, problem.message, at: problem.wholeLiteral ? literal.span : token.span,
      hint: problem.hint)
    return Expression(kind: .invalid, span: literal.span)
  }

  /// Why a number literal has no value a double can hold (too large: it would be infinite; too
  /// small: its nonzero digits would read as 0), or nil when it has one.
  static func unrepresentable(_ literal: Literal, written text: String) -> (
    message: String, hint: String, wholeLiteral: Bool
  )? {
    let range = "numbers other than 0 range from about 4.9 × 10^-324 to 1.8 × 10^308 in size"
    let count: Double
    switch literal {
    case .number(let number), .percent(let number): count = number
    case .duration(let seconds, _, let written):
      if written.isFinite, !seconds.isFinite {
        return (
          "this duration is too long to be represented", "write it in a smaller number; \(range)",
          true
        )
      }
      count = written
    default: return nil
    }
    if !count.isFinite {
      return ("this number is too large to be represented", range, false)
    }
    if count == 0, text.contains(where: { $0 >= "1" && $0 <= "9" }) {
      return ("this number is too small to be represented: it would read as 0", range, false)
    }
    return nil
  }

  private mutating func parseNumberWithUnit(_ token: Token) throws(ParseAbort) -> Expression {
    let number = Double(token.text) ?? 0
    if cursor.kind == .percentSign {
      let sign = cursor.advance()
      return Expression(kind: .literal(.percent(number)), span: token.span.merged(with: sign.span))
    }
    guard cursor.kind == .identifier else {
      return Expression(kind: .literal(.number(number)), span: token.span)
    }
    let unit = cursor.current
    if let seconds = Parser.durationUnits[unit.text] {
      cursor.advance()
      return Expression(
        kind: .literal(.duration(number * seconds, unit: unit.text, count: number)),
        span: token.span.merged(with: unit.span))
    }
    if Parser.isCurrencyCode(unit.text) {
      cursor.advance()
      let span = token.span.merged(with: unit.span)
      guard let milli = Parser.thousandths(of: token.text) else {
        let decimals = token.text.split(separator: ".").dropFirst().first?.count ?? 0
        let message =
          decimals > 3
          ? "an amount of money has at most three decimals" : "this amount of money is too large"
        if !token.text.isEmpty { report(.invalidNumber, message, at: span) }
        throw ParseAbort()
      }
      // A code of the right shape that names no currency (`USE` for USD) would check clean and
      // then never equal a fact's amount.
      guard CurrencyCodes.isKnown(unit.text) else {
        report(
          .unknownCurrency, "unknown currency '\(unit.text)'", at: unit.span,
          hint: Parser.unknownCurrencyHint(unit.text))
        return Expression(kind: .invalid, span: span)
      }
      return Expression(kind: .literal(.money(milli, currency: unit.text)), span: span)
    }
    if !unit.startsLine, let code = Parser.upperCaseCurrency(unit.text) {
      cursor.advance()
      let span = token.span.merged(with: unit.span)
      report(
        .unknownCurrency, "currency codes are upper case: \(code)", at: unit.span,
        hint: "write \(token.text) \(code)")
      return Expression(kind: .invalid, span: span)
    }
    if !unit.startsLine, let hint = Parser.unknownUnitHint(unit.text) {
      // Said here, as what it is, instead of as a number compared with a duration and a
      // stray word where 'then' was expected.
      cursor.advance()
      report(.unknownUnit, "unknown unit '\(unit.text)'", at: unit.span, hint: hint)
      return Expression(kind: .invalid, span: token.span.merged(with: unit.span))
    }
    return Expression(kind: .literal(.number(number)), span: token.span)
  }

  /// The fix for a word after a number that is meant as a unit but is not one, or nil when the
  /// word does not look like a unit at all.
  public static func unknownUnitHint(_ word: String) -> String? {
    let units = "the units are seconds, minutes, hours, days and weeks"
    let lower = word.lowercased()
    if durationUnits[lower] != nil {
      // A unit already in lower case is not what is wrong (`x days`: the count is).
      return lower == word ? nil : "write the unit in lower case: '\(lower)'"
    }
    switch lower {
    case "month", "months", "mo", "mos":
      return "a month has no fixed length: write days, as in 30 days; \(units)"
    case "year", "years", "yr", "yrs", "y":
      return "a year has no fixed length: write days, as in 365 days; \(units)"
    case "s", "sec", "secs", "m", "min", "mins", "h", "hr", "hrs", "d", "w", "wk", "wks":
      return "write the unit in full, as in 12 hours; \(units)"
    default:
      return nil
    }
  }

  /// The currency code a word not in upper case means (`usd` is USD), or nil when the word is not
  /// a known currency in another case.
  static func upperCaseCurrency(_ word: String) -> String? {
    let upper = word.uppercased()
    guard upper != word, isCurrencyCode(upper), !reservedWords.contains(word.lowercased()),
      CurrencyCodes.isKnown(upper)
    else { return nil }
    return upper
  }

  /// The hint for a three-letter code that names no active currency: the code one letter away,
  /// or how to write one.
  public static func unknownCurrencyHint(_ code: String) -> String {
    CurrencyCodes.suggestion(for: code).map { "did you mean '\($0)'?" }
      ?? "write an ISO 4217 currency code, such as USD or EUR"
  }

  static func isCurrencyCode(_ text: String) -> Bool {
    text.utf8.count == 3
      && text.utf8.allSatisfy { $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") }
  }

  /// An exact decimal amount in thousandths, or nil if it is not digits with at most one point,
  /// has more than three decimals or overflows. No sign: `Int64` would read `5.-5` as 5 and -5.
  static func thousandths(of decimal: String) -> Int64? {
    let parts = decimal.split(separator: ".", omittingEmptySubsequences: false)
    guard parts.count <= 2, parts.allSatisfy({ $0.utf8.allSatisfy(Lexer.isDigit) }),
      let whole = Int64(parts[0])
    else { return nil }
    var fraction = parts.count == 2 ? String(parts[1]) : ""
    guard fraction.count <= 3 else { return nil }
    while fraction.count < 3 { fraction += "0" }
    guard let thousandths = Int64(fraction) else { return nil }
    let (scaled, overflow) = whole.multipliedReportingOverflow(by: 1000)
    let (amount, sumOverflow) = scaled.addingReportingOverflow(thousandths)
    return overflow || sumOverflow ? nil : amount
  }
}
