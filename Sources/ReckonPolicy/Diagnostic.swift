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

  /// Creates a diagnostic.
  public init(
    _ id: DiagnosticID, _ severity: Severity, _ message: String, at span: SourceSpan,
    hint: String? = nil
  ) {
    self.id = id
    self.severity = severity
    self.message = message
    self.span = span
    self.hint = hint
  }

  /// Whether this diagnostic stops a load.
  public var isError: Bool { severity == .error }
}

/// The stable names of every kind of diagnostic, so tools and tests can match on them.
public enum DiagnosticID: String, Hashable, Sendable, CaseIterable {
  // Lexical
  case unexpectedCharacter = "unexpected-character"
  case unterminatedString = "unterminated-string"
  case unknownEscape = "unknown-escape"
  case invalidNumber = "invalid-number"
  case invalidEncoding = "invalid-encoding"
  case unsupportedLineBreak = "unsupported-line-break"
  // Syntax
  case expectedToken = "expected-token"
  case expectedExpression = "expected-expression"
  case unknownAction = "unknown-action"
  case duplicateHeader = "duplicate-header"
  case declarationAfterOtherwise = "declaration-after-otherwise"
  case duplicateOtherwise = "duplicate-otherwise"
  case chainedComparison = "chained-comparison"
  case listOutsideIn = "list-outside-in"
  case nestingTooDeep = "nesting-too-deep"
  case unknownUnit = "unknown-unit"
  case assignmentInCondition = "assignment-in-condition"
  case invalidRuleName = "invalid-rule-name"
  case notAPolicy = "not-a-policy"
  case duplicateGiven = "duplicate-given"
  case conflictingExpectations = "conflicting-expectations"
  // Names and types
  case unknownName = "unknown-name"
  case unknownFact = "unknown-fact"
  case unknownEnumValue = "unknown-enum-value"
  case unknownField = "unknown-field"
  case unknownFunction = "unknown-function"
  case duplicateLet = "duplicate-let"
  case letShadowsFact = "let-shadows-fact"
  case letShadowsValue = "let-shadows-value"
  case duplicateRuleName = "duplicate-rule-name"
  case typeMismatch = "type-mismatch"
  case invalidOperand = "invalid-operand"
  case invalidArguments = "invalid-arguments"
  case percentOutOfRange = "percent-out-of-range"
  case conflictingActions = "conflicting-actions"
  case divisionByZero = "division-by-zero"
  case emptyPolicy = "empty-policy"
  // Warnings
  case unreachableRule = "unreachable-rule"
  case neverMatches = "never-matches"
  case shadowedRule = "shadowed-rule"
  case unguardedOptionalFact = "unguarded-optional-fact"
  case proratedWithoutUsageBound = "prorated-without-usage-bound"
  case refundForExcludedProduct = "refund-for-excluded-product"
  case constantPercentCondition = "constant-percent-condition"
  case answersWithoutConsent = "answers-without-consent"
  case percentageAppleRefuses = "percentage-apple-refuses"
}
