/// Prints a policy in its one canonical layout: a declaration per line group, two-space indent
/// under `rule`, operators and literals spelled one way, conditions wider than `width` wrapped
/// before `and`/`or`, blank lines kept (at most one), every comment kept where it was.
///
/// Formatting is idempotent, and the result parses to the same tree as the input (spans aside).
public struct PolicyFormatter: Sendable {
  /// Lines longer than this are wrapped where a condition allows.
  public let width: Int
  /// The words actions are written in.
  public let vocabulary: PolicyVocabulary

  /// Creates a formatter of policies written in `vocabulary`, wrapping at `width` columns.
  public init(vocabulary: PolicyVocabulary, width: Int = 100) {
    self.vocabulary = vocabulary
    self.width = width
  }

  /// Formats `source`; fails with the syntax errors when it does not parse, and refuses (rather
  /// than return text that would change the policy) when the result would not parse back to the
  /// same declarations.
  public func format(_ source: SourceFile) throws(PolicyFormatError) -> String {
    let (syntax, diagnostics) = Parser.parse(source, vocabulary: vocabulary)
    let errors = diagnostics.filter(\.isError)
    guard errors.isEmpty else { throw PolicyFormatError(source: source, diagnostics: errors) }
    let formatted = format(syntax, source: source)
    try FormatVerifier(original: syntax, source: source, vocabulary: vocabulary).verify(formatted)
    return formatted
  }

  /// Formats a parsed policy; `source` is the text it was parsed from, for comments and blank lines.
  public func format(_ syntax: PolicySyntax, source: SourceFile) -> String {
    let printer = ExpressionPrinter(source: source, comments: syntax.comments.map(\.span.start))
    var weaver = CommentWeaver(
      source: source, comments: syntax.comments.sorted { $0.span.start < $1.span.start })
    var previousEnd = 0
    for declaration in syntax.declarations {
      var span = declaration.formattingSpan
      // A header's span is its value's; it starts at its keyword, the first token after the
      // previous declaration, so a comment between the two stays with it.
      if case .header = declaration {
        span = SourceSpan(
          start: min(span.start, source.tokenStart(after: previousEnd)), end: span.end)
      }
      weaver.emitComments(before: span.start)
      weaver.emit(lines(for: declaration, printer, start: span.start), span: span)
      previousEnd = declaration.formattingSpan.end
    }
    weaver.emitComments(before: Int.max)
    return weaver.text()
  }

  /// The printed lines of `declaration`, which starts at `start` (a header's keyword).
  private func lines(for declaration: Declaration, _ printer: ExpressionPrinter, start: Int)
    -> [FormattedLine]
  {
    func header(_ text: String, _ value: SourceSpan) -> [FormattedLine] {
      [FormattedLine(0, text, start, contentStart: value.start, end: value.end)]
    }
    switch declaration {
    case .header(.name(let name)):
      return header("policy " + ExpressionPrinter.quoted(name.value), name.span)
    case .header(.version(let version)):
      return header("version " + version.value, version.span)
    case .header(.description(let text)):
      return header("description " + ExpressionPrinter.quoted(text.value), text.span)
    case .let(let value):
      return wrapped(
        "let \(value.name.value) = ", value.value, indent: 0, start: value.span.start, printer)
    case .rule(let rule):
      var lines = namedCondition(
        "rule", rule.name, rule.condition, start: rule.span.start, printer)
      // The `then` line starts at its keyword, so a comment written right after it stays there.
      let then = printer.tokenStart(after: rule.condition.span.end)
      lines += actionLines("then ", rule.actions, indent: 2, start: then, printer)
      return lines
    case .hold(let hold):
      return namedCondition("hold", hold.name, hold.condition, start: hold.span.start, printer)
    case .otherwise(let clause):
      return actionLines("otherwise ", clause.actions, indent: 0, start: clause.span.start, printer)
    }
  }

  /// `KEYWORD "NAME"` and its indented `when` line (wrapped as needed), which starts at its
  /// keyword, so a comment written right after the keyword stays on its line.
  private func namedCondition(
    _ keyword: String, _ name: Located<String>, _ condition: Expression, start: Int,
    _ printer: ExpressionPrinter
  ) -> [FormattedLine] {
    let when = printer.tokenStart(after: name.span.end)
    var lines = wrapped("when ", condition, indent: 2, start: when, printer)
    lines[0] = FormattedLine(
      2, lines[0].text, when, contentStart: condition.span.start, end: lines[0].end)
    return [
      FormattedLine(
        0, keyword + " " + ExpressionPrinter.quoted(name.value), start, end: name.span.end)
    ] + lines
  }

  /// `prefix A, B, C` on one line if it fits and no comment sits between the actions; else one
  /// action per line, so each comment stays beside the action it was written beside.
  private func actionLines(
    _ prefix: String, _ actions: [Action], indent: Int, start: Int, _ printer: ExpressionPrinter
  ) -> [FormattedLine] {
    let texts = actions.map { action(text: $0, printer) }
    let whole = prefix + texts.joined(separator: ", ")
    let commentBetween = zip(actions, actions.dropFirst()).contains {
      printer.hasComment(from: $0.span.end, to: $1.span.start)
    }
    guard indent + whole.count > width || commentBetween else {
      return [
        FormattedLine(
          indent, whole, start, contentStart: actions.first?.span.start,
          end: actions.last?.span.end ?? start)
      ]
    }
    return zip(actions, texts).enumerated().map { position, pair in
      let text = position == texts.count - 1 ? pair.1 : pair.1 + ","
      return position == 0
        ? FormattedLine(
          indent, prefix + text, start, contentStart: pair.0.span.start, end: pair.0.span.end)
        : FormattedLine(indent + 2, text, pair.0.span.start, end: pair.0.span.end)
    }
  }

  /// `prefix EXPR` on one line if it fits, else filled up to `width` and broken before `and`/`or`,
  /// the lines after the first at `continuation` (two deeper than the first by default).
  private func wrapped(
    _ prefix: String, _ expression: Expression, indent: Int, start: Int,
    _ printer: ExpressionPrinter, continuation: Int? = nil
  ) -> [FormattedLine] {
    let next = continuation ?? indent + 2
    let whole = prefix + printer.print(expression)
    guard let chain = printer.chain(expression),
      indent + whole.count > width
        || zip(chain.parts, chain.parts.dropFirst()).contains(where: {
          printer.hasComment(from: $0.end, to: $1.start)
        })
    else {
      return [FormattedLine(indent, whole, start, end: expression.span.end)]
    }
    var lines = partLines(
      prefix, chain.parts[0], indent: indent, continuation: next + 2, start: start, printer)
    // A part broken inside its parentheses ends its block: the next starts a line of its own.
    var closed = chain.parts[0].inner != nil && lines.count > 1
    for (previous, part) in zip(chain.parts, chain.parts.dropFirst()) {
      let last = lines[lines.count - 1]
      let extended = last.text + " \(chain.word) " + part.text
      // A comment between two parts keeps the break the author made there, so the comment stays
      // beside the part it was written beside. One inside a part goes above its line.
      if !closed, last.indent + extended.count <= width,
        !printer.hasComment(from: previous.end, to: part.start)
      {
        lines[lines.count - 1] = FormattedLine(last.indent, extended, last.start, end: part.end)
        closed = false
      } else {
        let added = partLines(
          chain.word + " ", part, indent: next, continuation: next + 2, start: part.start,
          printer)
        lines += added
        closed = part.inner != nil && added.count > 1
      }
    }
    return lines
  }

  /// `prefix PART` on one line if it fits; else, for a parenthesised chain (or `not` of one),
  /// broken inside the parentheses as a condition is, its lines at `continuation`, deeper than
  /// the enclosing chain's.
  private func partLines(
    _ prefix: String, _ part: ExpressionPrinter.ChainPart, indent: Int, continuation: Int,
    start: Int, _ printer: ExpressionPrinter
  ) -> [FormattedLine] {
    let line = FormattedLine(indent, prefix + part.text, start, end: part.end)
    guard indent + prefix.count + part.text.count > width, let inner = part.inner else {
      return [line]
    }
    var lines = wrapped(
      prefix + inner.opening, inner.chain, indent: indent, start: start, printer,
      continuation: continuation)
    let last = lines[lines.count - 1]
    lines[lines.count - 1] = FormattedLine(last.indent, last.text + ")", last.start, end: part.end)
    return lines
  }

  private func action(text action: Action, _ printer: ExpressionPrinter) -> String {
    switch action.kind {
    case .choose(let choice): vocabulary.choose.text + " " + choice.value
    case .replyWithoutChoice: vocabulary.replyWithoutChoice.text
    case .withholdReply: vocabulary.withholdReply.text
    case .holdForReview: vocabulary.holdForReview.text
    case .set(let field, let value): "set \(field.value) = " + printer.print(value)
    case .follow(let fact): "follow " + fact.value
    }
  }
}

/// A policy that cannot be formatted: it does not parse, or its formatted text would not read back
/// as the same policy (a formatter bug, caught before anything is written).
public struct PolicyFormatError: Error, Sendable {
  /// Where and why the formatter refused its own output.
  struct Refusal: Sendable {
    let message: String
    let span: SourceSpan
    let hint: String
  }

  /// The file.
  public let source: SourceFile
  /// Its syntax errors; empty when the formatter refused its own output.
  public let diagnostics: [Diagnostic]
  let refusal: Refusal?

  init(source: SourceFile, diagnostics: [Diagnostic]) {
    self.source = source
    self.diagnostics = diagnostics
    self.refusal = nil
  }

  init(source: SourceFile, refusal: Refusal) {
    self.source = source
    self.diagnostics = []
    self.refusal = refusal
  }

  /// The errors rendered for a terminal.
  public func rendered() -> String {
    guard let refusal else { return DiagnosticFormatter().render(diagnostics, in: source) }
    return DiagnosticFormatter().render(
      .error, refusal.message, at: refusal.span, hint: refusal.hint, in: source)
  }
}

extension Declaration {
  /// From the declaration's first keyword to its last token.
  var formattingSpan: SourceSpan {
    switch self {
    case .header(let field): field.span
    case .let(let value): value.span
    case .rule(let rule): rule.span
    case .hold(let hold): hold.span
    case .otherwise(let clause): clause.span
    }
  }
}
