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

  mutating func expectWord(_ word: String) throws(ParseAbort) {
    guard cursor.isWord(word) else {
      report(
        .expectedToken, "expected '\(word)', found \(cursor.current.quoted)",
        at: cursor.current.span)
      throw ParseAbort()
    }
    cursor.advance()
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
      default: break
      }
    case .comma where previous?.kind == .number && cursor.peek().kind == .number:
      let next = cursor.peek().text
      // `1,000` is a thousands separator, `4,5` a decimal comma; each means another amount.
      return next.count == 3 && !previous!.text.contains(".")
        ? "numbers are written without separators: \(previous!.text)\(next)"
        : "a decimal takes a point: \(previous!.text).\(next)"
    case .number where previous.map { CurrencyCodes.isKnown($0.text) } ?? false:
      return "the amount comes before its currency, as in \(found.text) \(previous!.text)"
    default: break
    }
    return nil
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
