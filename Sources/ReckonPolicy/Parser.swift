/// Parses a policy file into a syntax tree, reporting every syntax error it finds.
///
/// A declaration with a syntax error is kept with an `invalid` part, so later stages still know its
/// name, and parsing resumes at the next declaration.
public struct Parser {
  /// Words that cannot name a `let`, because the grammar gives them a meaning.
  public static let reservedWords: Set<String> = [
    "and", "or", "not", "in", "is", "missing", "true", "false", "let", "rule", "when", "then",
    "otherwise", "policy", "version", "description", "starts", "ends", "contains",
  ]
  static let declarationWords: Set<String> = [
    "policy", "version", "description", "let", "rule", "hold", "otherwise",
  ]
  /// How deep an expression may nest, counting parentheses, `not`, unary minus and each operator of
  /// a chain such as `a and b and c`, so later stages never recurse deeper than this.
  static let maximumNesting = 100

  var cursor: TokenCursor
  var diagnostics: [Diagnostic]
  /// The words actions are written in, and hints use.
  let vocabulary: PolicyVocabulary
  private let comments: [Comment]
  var depth = 0

  /// Creates a parser over a source file whose actions are written in `vocabulary`; lexical
  /// problems join its diagnostics.
  public init(_ source: SourceFile, vocabulary: PolicyVocabulary) {
    self.vocabulary = vocabulary
    let lexed = Lexer.tokenize(source)
    self.cursor = TokenCursor(lexed.tokens)
    self.diagnostics = lexed.diagnostics
    self.comments = lexed.comments
  }

  /// Parses a whole file whose actions are written in `vocabulary`, and returns the tree with
  /// every lexical and syntax diagnostic.
  public static func parse(_ source: SourceFile, vocabulary: PolicyVocabulary) -> (
    syntax: PolicySyntax, diagnostics: [Diagnostic]
  ) {
    if let foreign = Parser.otherKindOfFile(source) {
      return (PolicySyntax(declarations: [], comments: []), [foreign])
    }
    var parser = Parser(source, vocabulary: vocabulary)
    let syntax = parser.parseFile()
    return (syntax, parser.diagnostics)
  }

  mutating func parseFile() -> PolicySyntax {
    var declarations: [Declaration] = []
    var otherwiseSeen = false
    while cursor.kind != .endOfFile {
      let before = cursor.position
      guard let declaration = parseDeclaration() else {
        if cursor.position == before { cursor.advance() }
        synchronize()
        continue
      }
      checkPlacement(of: declaration, in: declarations, otherwiseSeen: &otherwiseSeen)
      declarations.append(declaration)
    }
    return PolicySyntax(declarations: declarations, comments: comments)
  }

  private mutating func checkPlacement(
    of declaration: Declaration, in earlier: [Declaration], otherwiseSeen: inout Bool
  ) {
    switch declaration {
    case .otherwise(let clause):
      if otherwiseSeen {
        report(
          .duplicateOtherwise, "a policy has one 'otherwise'", at: clause.span,
          hint: "merge the two into one")
      }
      otherwiseSeen = true
    case .rule(let rule) where otherwiseSeen:
      report(
        .declarationAfterOtherwise,
        "rule '\(rule.name.value)' comes after 'otherwise' and would never be tried",
        at: rule.name.span,
        hint: "move 'otherwise' to the end of the file")
    case .let(let value) where otherwiseSeen:
      report(
        .declarationAfterOtherwise, "'let' comes after 'otherwise'", at: value.span,
        hint: "move 'otherwise' to the end of the file")
    case .header(let field):
      let duplicate = earlier.contains { existing in
        guard case .header(let other) = existing else { return false }
        return other.keyword == field.keyword
      }
      if duplicate {
        report(
          .duplicateHeader, "'\(field.keyword)' is given twice", at: field.span, hint: "keep one")
      }
    default:
      break
    }
  }

  private mutating func parseDeclaration() -> Declaration? {
    let token = cursor.current
    guard token.kind == .identifier else {
      report(
        .expectedDeclaration,
        "expected 'rule', 'hold', 'let' or 'otherwise', found \(token.quoted)",
        at: token.span)
      return nil
    }
    do {
      switch token.text {
      case "policy":
        let name = try parseHeaderText()
        if name.value.allSatisfy(\.isWhitespace) {
          report(
            .emptyPolicyName, "a policy's name cannot be empty", at: name.span,
            hint: "name it, or leave the policy line out: the file's name is used then")
        }
        return .header(.name(name))
      case "description": return .header(.description(try parseHeaderText()))
      case "version": return .header(.version(try parseVersion()))
      case "let": return .let(parseLet())
      case "rule": return .rule(parseRule())
      case "hold": return parseHold().map(Declaration.hold)
      case "otherwise": return .otherwise(parseOtherwise())
      default:
        let hint = Suggestions.closest(to: token.text, among: Array(Parser.declarationWords)).map {
          "did you mean '\($0)'?"
        }
        report(
          .expectedDeclaration,
          "expected 'rule', 'hold', 'let' or 'otherwise', found \(token.quoted)",
          at: token.span, hint: hint)
        return nil
      }
    } catch {
      return nil
    }
  }

  private mutating func parseHeaderText() throws(ParseAbort) -> Located<String> {
    cursor.advance()
    let token = try expect(.string, "text in double quotes")
    return Located(token.text, at: token.span)
  }

  private mutating func parseVersion() throws(ParseAbort) -> Located<String> {
    cursor.advance()
    let token = try expect(.number, "a version number")
    return Located(token.text, at: token.span)
  }

  private mutating func parseLet() -> LetDeclaration {
    let start = cursor.advance().span
    do {
      let name = try expect(.identifier, "a name")
      if Parser.reservedWords.contains(name.text) || name.text.contains(".") {
        report(
          .invalidLetName, "'\(name.text)' cannot be the name of a 'let'", at: name.span,
          hint: "choose a single word that is not one of the language's own, such as 'used'")
      }
      try expect(.assign, "'='")
      // A list may be a let's whole value: a named list, for `in NAME`.
      let value = cursor.kind == .leftBracket ? parseListOrInvalid() : parseExpressionOrInvalid()
      if value.kind == .invalid { synchronize() }
      return LetDeclaration(
        name: Located(name.text, at: name.span), value: value, span: start.merged(with: value.span))
    } catch {
      synchronize()
      let span = SourceSpan(start: start.start, end: cursor.previousEnd)
      return LetDeclaration(
        name: Located("", at: start), value: Expression(kind: .invalid, span: span), span: span)
    }
  }

  private mutating func parseRule() -> RuleDeclaration {
    let start = cursor.advance().span
    var name = Located("", at: start)
    var condition = Expression(kind: .invalid, span: start)
    var actions: [Action] = []
    do {
      let nameToken = try expect(
        .string, "the rule's name in double quotes, as in rule \"heavy use\"")
      name = Located(nameToken.text, at: nameToken.span)
      checkRuleName(name)
      try expectWord(
        "when",
        hint: cursor.isWord("then")
          ? "say when the rule applies before 'then', as in when reason == LEGAL; for every request no rule matches, write otherwise \(vocabulary.replyWithoutChoice.text)"
          : nil)
      condition = parseExpressionOrInvalid()
      if condition.kind == .invalid { throw ParseAbort() }
      if cursor.kind == .endOfFile
        || (cursor.current.startsLine && cursor.kind == .identifier
          && Parser.declarationWords.contains(cursor.current.text))
      {
        // Said where the 'then' belongs, not at the next rule, which is not what is wrong.
        report(
          .missingThen, "this rule has no 'then'",
          at: SourceSpan(start: condition.span.end, end: condition.span.end),
          hint:
            "say what the rule does, as in: then \(vocabulary.choose.text) \(vocabulary.examples.decline)"
        )
        throw ParseAbort()
      }
      guard cursor.isWord("then") else {
        report(
          .missingThen, "expected 'then', found \(cursor.current.quoted)",
          at: cursor.current.span,
          hint: hintAfterCondition() ?? misspelt("then") ?? actionWithoutThen())
        if conditionCutShort() { condition = Expression(kind: .invalid, span: condition.span) }
        throw ParseAbort()
      }
      cursor.advance()
      actions = try parseActions()
    } catch {
      synchronize()
    }
    return RuleDeclaration(
      name: name, condition: condition, actions: actions,
      span: SourceSpan(start: start.start, end: cursor.previousEnd))
  }

  /// Decisions, traces and tests name the deciding rule by its name and say `otherwise` when no
  /// rule matched, so a rule needs a name, and not that one.
  private mutating func checkRuleName(_ name: Located<String>) {
    let words = name.value.split(whereSeparator: \.isWhitespace)
    if words.isEmpty {
      report(
        .invalidRuleName, "a rule needs a name", at: name.span,
        hint:
          "say what the rule is for, as in rule \"heavy use\"; decisions name the rule that decided"
      )
    } else if words.joined(separator: " ").lowercased() == "otherwise" {
      report(
        .invalidRuleName,
        "a rule cannot be called 'otherwise': decisions use that name for the otherwise clause",
        at: name.span, hint: "choose another name, such as \"everything else\"")
    }
  }

  /// The hint for an action written where `then` belongs: the condition ended, the word that
  /// starts the actions was left out.
  private func actionWithoutThen() -> String? {
    let word = cursor.current.text
    let starts =
      [vocabulary.choose.words.first, "set", "follow"]
      + vocabulary.plainActions.map(\.phrase.words.first)
    guard cursor.kind == .identifier, starts.contains(word) else { return nil }
    return "a rule's actions follow 'then': write then \(word) …"
  }

  static func isUsableRuleName(_ name: String) -> Bool {
    let words = name.split(whereSeparator: \.isWhitespace)
    return !words.isEmpty && words.joined(separator: " ").lowercased() != "otherwise"
  }

  /// `hold "NAME" when CONDITION`; nil when `hold for review` stands here, an action cut off from
  /// its rule by a missing comma.
  private mutating func parseHold() -> HoldDeclaration? {
    let start = cursor.current.span
    if cursor.peek().kind == .identifier, cursor.peek().text == "for" {
      report(
        .expectedActionSeparator,
        "'\(vocabulary.holdForReview.text)' stands on its own: a rule's actions are joined by commas",
        at: start,
        hint:
          "write then \(vocabulary.choose.text) \(vocabulary.examples.decline), \(vocabulary.holdForReview.text); to hold whatever the rules decide, write a clause of its own: hold \"NAME\" when CONDITION"
      )
      cursor.advance()
      synchronize()
      return nil
    }
    cursor.advance()
    var name = Located("", at: start)
    var condition = Expression(kind: .invalid, span: start)
    do {
      let nameToken = try expect(
        .string, "the hold's name in double quotes, as in hold \"big purchases\"")
      name = Located(nameToken.text, at: nameToken.span)
      if name.value.allSatisfy(\.isWhitespace) {
        report(
          .invalidRuleName, "a hold needs a name", at: name.span,
          hint: "say why it holds, as in hold \"big purchases\"; held decisions name it")
      }
      try expectWord("when")
      condition = parseExpressionOrInvalid()
      if condition.kind == .invalid { throw ParseAbort() }
      if cursor.isWord("then") {
        report(
          .holdWithThen, "a hold has no 'then': it holds whatever the rules decide",
          at: cursor.current.span,
          hint: "to decide as well, write a rule: rule \"NAME\" when CONDITION then ...")
        throw ParseAbort()
      }
    } catch {
      synchronize()
    }
    return HoldDeclaration(
      name: name, condition: condition,
      span: SourceSpan(start: start.start, end: cursor.previousEnd))
  }

  private mutating func parseOtherwise() -> OtherwiseClause {
    let start = cursor.advance().span
    let actions = (try? parseActions()) ?? []
    if actions.isEmpty { synchronize() }
    return OtherwiseClause(
      actions: actions, span: SourceSpan(start: start.start, end: cursor.previousEnd))
  }

  private mutating func parseActions() throws(ParseAbort) -> [Action] {
    var actions = [try parseAction()]
    while cursor.kind == .comma {
      cursor.advance()
      actions.append(try parseAction())
    }
    let next = cursor.current
    if next.kind != .endOfFile,
      !(next.kind == .identifier && Parser.declarationWords.contains(next.text))
    {
      // `Rule "b"` after a rule: the next declaration, with its keyword capitalised.
      let lower = next.text.lowercased()
      let hint =
        next.kind == .identifier && Parser.declarationWords.contains(lower)
        ? "keywords are written in lower case: \(lower)" : nil
      report(
        .expectedActionSeparator,
        "expected ',' before another action, or a new rule, found \(next.quoted)",
        at: next.span, hint: hint)
      throw ParseAbort()
    }
    return actions
  }

  private mutating func parseAction() throws(ParseAbort) -> Action {
    let first = cursor.current
    let kind: Action.Kind
    let word = first.kind == .identifier ? first.text : ""
    if word == vocabulary.choose.words.first {
      try expectPhrase(vocabulary.choose)
      let choice = try expect(
        .identifier, "what to prefer, such as \(vocabulary.examples.grant)")
      kind = .choose(Located(choice.text, at: choice.span))
    } else if let plain = vocabulary.plainActions.first(where: { $0.phrase.words.first == word }) {
      try expectPhrase(plain.phrase)
      kind = plain.kind
    } else if word == "follow" {
      cursor.advance()
      let fact = try expect(
        .identifier,
        "the fact whose value is the answer, such as \(vocabulary.examples.optionalFact)")
      kind = .follow(Located(fact.text, at: fact.span))
    } else if word == "set" {
      cursor.advance()
      let field = try expect(
        .identifier, "the body field to set, such as \(vocabulary.examples.settableField)")
      try expect(.assign, "'='")
      let value = parseExpressionOrInvalid()
      if value.kind == .invalid { throw ParseAbort() }
      kind = .set(field: Located(field.text, at: field.span), value: value)
    } else {
      let phrases =
        [vocabulary.choose.text] + vocabulary.plainActions.map(\.phrase).map(\.text) + [
          "set", "follow",
        ]
      let hint =
        Suggestions.closest(to: first.text, among: phrases).map { "did you mean '\($0)'?" }
        ?? "an action is one of: \(vocabulary.actionList), set FIELD = VALUE"
      report(
        .unknownAction, "expected an action, found \(first.quoted)", at: first.span, hint: hint)
      throw ParseAbort()
    }
    return Action(kind: kind, span: SourceSpan(start: first.span.start, end: cursor.previousEnd))
  }

  /// Takes the words of `phrase`, the first of which is the current token.
  private mutating func expectPhrase(_ phrase: PolicyVocabulary.Phrase) throws(ParseAbort) {
    cursor.advance()
    for word in phrase.words.dropFirst() { try expectWord(word) }
  }
}

/// Thrown inside the parser to abandon a declaration after reporting its error.
struct ParseAbort: Error {}

extension HeaderField {
  var keyword: String {
    switch self {
    case .name: "policy"
    case .version: "version"
    case .description: "description"
    }
  }

  var span: SourceSpan {
    switch self {
    case .name(let value), .version(let value), .description(let value): value.span
    }
  }
}

extension Token {
  var quoted: String {
    switch kind {
    case .endOfFile: "the end of the file"
    case .string: "\"\(text)\""
    default: "'\(text)'"
    }
  }
}
