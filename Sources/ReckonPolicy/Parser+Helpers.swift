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
  /// left with `leaveNesting`.
  mutating func enterNesting(at span: SourceSpan) throws(ParseAbort) {
    guard depth < Parser.maximumNesting else {
      report(
        .nestingTooDeep, "this expression nests more than \(Parser.maximumNesting) levels deep",
        at: span,
        hint: "split it with 'let'")
      throw ParseAbort()
    }
    depth += 1
  }

  mutating func leaveNesting(_ levels: Int = 1) { depth -= levels }
}
