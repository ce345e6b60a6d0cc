/// The state of one evaluation: the request's facts, the `let` values computed so far, and the
/// trace recorder when a trace was asked for. The `let` cache lives on the stack of `evaluate`.
struct EvaluationFrame {
  let facts: UnsafeBufferPointer<Value?>
  let lets: UnsafeMutableBufferPointer<LetState>
  /// Each `let`'s compiled value, called through the frame rather than captured by the closures
  /// that use it: captured, a chain of lets was a chain of closures whose release recursed once
  /// per let, and overflowed a small thread stack long before evaluating it would.
  let letBodies: UnsafeBufferPointer<CompiledExpression>
  var recorder: TraceRecorder?

  /// A `let` is computed the first time a rule needs it, then remembered.
  enum LetState {
    case pending
    case done(Value?)
  }
}

/// A compiled expression: evaluates to a value, or nil for unknown.
typealias CompiledExpression = @Sendable (inout EvaluationFrame) -> Value?
