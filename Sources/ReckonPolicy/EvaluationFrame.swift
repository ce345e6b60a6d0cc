/// The state of one evaluation: the request's facts, the `let` values computed so far, and the
/// trace recorder when a trace was asked for. The `let` cache lives on the stack of `evaluate`.
struct EvaluationFrame {
  let facts: UnsafeBufferPointer<Value?>
  let lets: UnsafeMutableBufferPointer<LetState>
  let recorder: TraceRecorder?

  /// A `let` is computed the first time a rule needs it, then remembered.
  enum LetState {
    case pending
    case done(Value?)
  }
}

/// A compiled expression: evaluates to a value, or nil for unknown.
typealias CompiledExpression = @Sendable (inout EvaluationFrame) -> Value?
