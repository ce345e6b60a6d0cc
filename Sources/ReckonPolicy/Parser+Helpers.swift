/// The consume helpers the grammar is written with, error reporting, recovery and the nesting limit.
extension Parser {
  @discardableResult
  mutating func expect(_ kind: Token.Kind, _ what: String) throws(ParseAbort) -> Token {
    guard cursor.kind == kind else {
      report(
        .expectedToken, "expected \(what), found \(cursor.current.quoted)", at: cursor.current.span)
      throw ParseAbort()
    }
    return cursor.advance()
  }

  mutating func expectWord(_ word: String, hint: String? = nil) throws(ParseAbort) {
    guard cursor.isWord(word) else {
      report(
        .expectedKeyword, "expected '\(word)', found \(cursor.current.quoted)",
        at: cursor.current.span, hint: hint ?? misspelt(word))
      throw ParseAbort()
    }
    cursor.advance()
  }

  /// The hint for a word written where the keyword `word` belongs: the keyword in lower case
  /// (`When`, `THEN`), or spelt out (`wen`, `thne`); nil for any other word.
  func misspelt(_ word: String) -> String? {
    guard cursor.kind == .identifier else { return nil }
    let found = cursor.current.text
    if found.lowercased() == word, found != word {
      return "keywords are written in lower case: \(word)"
    }
    // `then` where `when` belongs is the condition left out, not a misspelling.
    guard !(word == "when" && found.lowercased() == "then") else { return nil }
    let close = Suggestions.editDistance(found.lowercased(), word) <= (word.count > 4 ? 2 : 1)
    return close && found.count > 1 ? "did you mean '\(word)'?" : nil
  }

  /// What the author most likely meant where a condition ended before its `then`: the usual
  /// slips of someone writing a policy for the first time, each with the form to write.
  func hintAfterCondition() -> String? {
    let found = cursor.current
    let previous = cursor.previous
    let amount = previous?.kind == .number ? previous!.text : "100"
    switch found.kind {
    case .identifier:
      switch found.text.lowercased() {
      case "startswith", "beginswith": return "did you mean 'starts with'?"
      case "endswith": return "did you mean 'ends with'?"
      case "contain", "includes": return "did you mean 'contains'?"
      case "euro", "euros": return "money is written with its ISO 4217 code: \(amount) EUR"
      case "pound", "pounds": return "money is written with its ISO 4217 code: \(amount) GBP"
      case "yen": return "money is written with its ISO 4217 code: \(amount) JPY"
      case "dollar", "dollars":
        return "money is written with its ISO 4217 code: \(amount) USD, CAD, AUD…"
      case "percent", "percentage", "pct": return "a percentage is written with %: \(amount)%"
      case "equals", "equal", "eq": return "compare with ==, as in reason == LEGAL"
      case "not":
        return "'not' goes after 'is' (is not missing) or before 'in' (not in [LEGAL, OTHER])"
      default:
        if ["and", "or", "then"].contains(found.text.lowercased()) {
          return "keywords are written in lower case: \(found.text.lowercased())"
        }
      }
    case .comma where separatedNumber() != nil:
      return separatedNumber()
    case .number where previous.map { CurrencyCodes.isKnown($0.text) } ?? false:
      return "the amount comes before its currency, as in \(found.text) \(previous!.text)"
    default: break
    }
    return nil
  }

  /// Whether the condition read stops short of what the author wrote: inside a number
  /// (`> 1,000.00 USD` read as `> 1`) or before a comparison written in words (`reason equals
  /// LEGAL` read as `reason`). What the checker would say of the part read is not the mistake.
  func conditionCutShort() -> Bool {
    if separatedNumber() != nil { return true }
    guard cursor.kind == .identifier else { return false }
    // A unit in words after a number (`80 percent`) is the number's, not a new word: the
    // condition as parsed (`x > 80`) would draw a second error for the same slip.
    return ["equals", "equal", "eq", "not", "percent", "percentage", "pct"].contains(
      cursor.current.text.lowercased())
  }

  /// The hint for a number written with a comma where a condition ended (`1,000.00 USD`,
  /// `1,234,567`, `4,99 EUR`, `1.000,00 EUR`): the number as the language writes it; nil when
  /// the comma does not follow a number and precede another.
  func separatedNumber() -> String? {
    // A number the lexer could not read (`12abc`) has no text, and was reported already.
    guard cursor.kind == .comma, let first = cursor.previous, first.kind == .number,
      !first.text.isEmpty, cursor.peek().kind == .number, !cursor.peek().text.isEmpty
    else { return nil }
    var groups = [first.text]
    var distance = 0
    while cursor.peek(distance).kind == .comma, cursor.peek(distance + 1).kind == .number,
      !cursor.peek(distance + 1).text.isEmpty
    {
      groups.append(cursor.peek(distance + 1).text)
      distance += 2
    }
    let whole = { (group: String) in group.split(separator: ".", omittingEmptySubsequences: false) }
    let tail = groups.dropFirst()
    // `1,000`, `1,234,567.89`: every group after the first is three digits, only the last may
    // have a fraction.
    if !first.text.contains("."), first.text.count <= 3,
      tail.allSatisfy({ whole($0)[0].count == 3 }),
      tail.dropLast().allSatisfy({ !$0.contains(".") })
    {
      return "numbers are written without separators: \(groups.joined())"
    }
    guard groups.count == 2, !groups[1].contains(".") else { return nil }
    // `1.000,00`: points between thousands and a decimal comma.
    let parts = whole(first.text)
    if parts.count > 1, parts.dropFirst().allSatisfy({ $0.count == 3 }) {
      return "numbers are written without separators, with a decimal point: "
        + "\(parts.joined()).\(groups[1])"
    }
    // `4,99`: a decimal comma.
    return parts.count == 1 ? "a decimal takes a point: \(first.text).\(groups[1])" : nil
  }

  /// Skips to the next token that can start a declaration.
  mutating func synchronize() {
    while cursor.kind != .endOfFile {
      if cursor.kind == .identifier, Parser.declarationWords.contains(cursor.current.text),
        cursor.current.startsLine
      {
        return
      }
      cursor.advance()
    }
  }

  mutating func report(
    _ id: DiagnosticID, _ message: String, at span: SourceSpan, hint: String? = nil
  ) {
    diagnostics.append(Diagnostic(id, .error, message, at: span, hint: hint))
  }

  /// Counts one more level of nesting, or reports that there are too many; a level counted must be
  /// left with `leaveNesting`. `chain` is the `and`/`or` being joined and how many it has joined so
  /// far, so a long flat list is not described as deep nesting.
  mutating func enterNesting(
    at span: SourceSpan, chain: (word: String, links: Int)? = nil
  ) throws(ParseAbort) {
    guard depth < Parser.maximumNesting else {
      if let chain, chain.links >= Parser.maximumNesting / 2 {
        report(
          .nestingTooDeep,
          "this condition joins more than \(Parser.maximumNesting) conditions with '\(chain.word)'",
          at: span,
          hint:
            "name groups of them with 'let' and join the names, or list values with 'in', as in reason in [LEGAL, OTHER]"
        )
      } else {
        report(
          .nestingTooDeep, "this expression nests more than \(Parser.maximumNesting) levels deep",
          at: span,
          hint: "split it with 'let'")
      }
      throw ParseAbort()
    }
    depth += 1
  }

  mutating func leaveNesting(_ levels: Int = 1) { depth -= levels }
}
