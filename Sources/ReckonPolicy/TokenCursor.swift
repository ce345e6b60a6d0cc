/// A position in a token array with the look-ahead the parser needs.
struct TokenCursor {
  private let tokens: [Token]
  private(set) var position = 0

  init(_ tokens: [Token]) {
    self.tokens = tokens
  }

  var current: Token { tokens[position] }
  var kind: Token.Kind { tokens[position].kind }

  /// The token `distance` places ahead, or the end-of-file token.
  func peek(_ distance: Int = 1) -> Token {
    tokens[min(position + distance, tokens.count - 1)]
  }

  /// The last consumed token, if any.
  var previous: Token? { position == 0 ? nil : tokens[position - 1] }

  /// Where the last consumed token ended.
  var previousEnd: Int {
    position == 0 ? tokens[0].span.start : tokens[position - 1].span.end
  }

  func isWord(_ word: String) -> Bool {
    current.kind == .identifier && current.text == word
  }

  @discardableResult
  mutating func advance() -> Token {
    let token = tokens[position]
    if position < tokens.count - 1 { position += 1 }
    return token
  }
}
