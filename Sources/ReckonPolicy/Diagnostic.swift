/// One problem found in a policy: what, where, how bad, and how to fix it.
public struct Diagnostic: Hashable, Sendable {
  /// Whether a diagnostic stops the policy from loading.
  public enum Severity: String, Hashable, Sendable {
    case error
    case warning
  }

  /// The stable identifier of the kind of problem, e.g. `unknown-enum-value`.
  public let id: DiagnosticID
  /// How bad it is.
  public let severity: Severity
  /// The sentence the author reads.
  public let message: String
  /// Where in the file.
  public let span: SourceSpan
  /// A suggestion shown under the source line, such as "did you mean 'DELIVERED'?".
  public let hint: String?
  /// Whether the source line is shown under the message: not for a file that does not look
  /// like a policy at all, which may be anything (`/etc/shadow` named by mistake).
  public let quotesSource: Bool

  /// Creates a diagnostic.
  public init(
    _ id: DiagnosticID, _ severity: Severity, _ message: String, at span: SourceSpan,
    hint: String? = nil, quotesSource: Bool = true
  ) {
    self.id = id
    self.severity = severity
    self.message = message
    self.span = span
    self.hint = hint
    self.quotesSource = quotesSource
  }

  /// Whether this diagnostic stops a load.
  public var isError: Bool { severity == .error }
}
