/// The one call that turns policy text into something that can decide: lex, parse, check, compile.
public enum PolicyLoader {
  /// The outcome of loading a policy: the compiled policy when there was no error, and every
  /// diagnostic either way.
  public struct Result: Sendable {
    /// The compiled policy, or nil if any error was found.
    public let policy: CompiledPolicy?
    /// Every error and warning, in source order.
    public let diagnostics: [Diagnostic]
    /// The source, for rendering the diagnostics.
    public let source: SourceFile

    /// A result from its parts: a host that finds more problems adds them this way.
    public init(policy: CompiledPolicy?, diagnostics: [Diagnostic], source: SourceFile) {
      self.policy = policy
      self.diagnostics = diagnostics
      self.source = source
    }

    /// Whether any diagnostic is an error.
    public var hasErrors: Bool { diagnostics.contains(where: \.isError) }

    /// The diagnostics rendered for a terminal, coloured when `colour`.
    public func renderedDiagnostics(colour: Bool = false) -> String {
      DiagnosticFormatter(colour: colour).render(diagnostics, in: source)
    }
  }

  /// Loads a policy from its text.
  public static func load(_ source: SourceFile, schema: PolicySchema) -> Result {
    let (syntax, syntaxDiagnostics) = Parser.parse(source, vocabulary: schema.vocabulary)
    let (checked, checkDiagnostics) = Checker.check(syntax, schema: schema, source: source)
    let compiled = checked.map { PolicyCompiler.compile($0) }
    var found = syntaxDiagnostics + checkDiagnostics
    // Only when nothing else is wrong, so it does not bury the errors an author is fixing.
    if !found.contains(where: \.isError),
      let empty = Checker.nothingDecides(syntax, vocabulary: schema.vocabulary)
    {
      found.append(empty)
    }
    // Warnings come from analysing a policy that checks. A syntax error leaves the checker a
    // tree with parts dropped or misplaced (a rule after a second 'otherwise'), whose warnings
    // would be about a policy the author did not write: a file with errors shows its errors.
    if found.contains(where: \.isError) { found.removeAll { !$0.isError } }
    let diagnostics = found.sorted {
      ($0.span.start, $0.span.end) < ($1.span.start, $1.span.end)
    }
    let usable = diagnostics.contains(where: \.isError) ? nil : compiled
    return Result(policy: usable, diagnostics: diagnostics, source: source)
  }
}
