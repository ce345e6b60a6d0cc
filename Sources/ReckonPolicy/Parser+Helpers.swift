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
