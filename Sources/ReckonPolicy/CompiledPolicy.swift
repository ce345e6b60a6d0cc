/// A policy ready to decide: checked, resolved and compiled. Evaluation is total: whatever the
/// facts, it returns a decision.
public struct CompiledPolicy: Sendable {
  struct CompiledActions: Sendable {
    /// The actions with `set` values left nil; for most rules this is the whole answer.
    let fixed: [DecidedAction]
    let computed: [(position: Int, field: FieldDescriptor, value: CompiledExpression)]
    /// A `follow FACT`: where its answer goes, the fact's slot, and the answer for each of its
    /// values by ordinal.
    var follow: (position: Int, slot: Int, answers: [DecidedAction])? = nil
  }

  /// The rules and `otherwise`, compiled one way (with or without trace recording).
  struct Program: Sendable {
    /// Each rule's condition, by rule index, kept apart from the actions.
    let conditions: RuleConditions
    /// Each rule's actions, by rule index.
    let actions: [CompiledActions]
    let otherwise: CompiledActions
    /// The lets' compiled values, by index, for `EvaluationFrame.letBodies`.
    let lets: ContiguousArray<CompiledExpression>
    /// Each `hold` clause's condition, by index.
    let holds: ContiguousArray<CompiledExpression>
    /// The rules to try by one fact's value, in the program that records no trace: a traced
    /// evaluation tries every rule in turn, so its trace is the same either way.
    let index: RuleIndex?
    /// About how many values a traced decision records, so the trace's list of them is
    /// allocated once; 0 in the program that records no trace.
    var traceCapacity = 0
  }

  /// The two programs, in one shared box: a policy is copied into each decider and each
  /// decision, and copying the programs' arrays one by one costs a reference count per array,
  /// both ways, each time.
  final class Programs: Sendable {
    let plain: Program
    let traced: Program
    /// The schema's fact count, read on every decision: kept here so reading it takes no trip
    /// through the checked policy's box and the schema's, each a retain and a release.
    let factCount: Int

    init(plain: Program, traced: Program, factCount: Int) {
      self.plain = plain
      self.traced = traced
      self.factCount = factCount
    }
  }

  /// The checked policy this was compiled from: names, spans, source.
  public let checked: CheckedPolicy
  let programs: Programs
  /// The program that records no trace.
  var plain: Program { programs.plain }
  /// The program that records a trace.
  var traced: Program { programs.traced }

  init(checked: CheckedPolicy, plain: Program, traced: Program) {
    self.checked = checked
    self.programs = Programs(
      plain: plain, traced: traced, factCount: checked.schema.factCount)
  }

  /// The schema facts must follow.
  public var schema: PolicySchema { checked.schema }

  /// An empty fact set for this policy's schema.
  public func makeFacts() -> FactValues { FactValues(schema: checked.schema) }

  /// Decides for one request's facts; with `trace`, also records what it looked at.
  public func evaluate(_ facts: FactValues, trace: Bool = false) -> PolicyDecision {
    // Each program is passed as it is stored: choosing one into a local copied it, a retain
    // and a release of each of its arrays per decision.
    trace
      ? evaluate(facts, programs.traced, traced: true)
      : evaluate(facts, programs.plain, traced: false)
  }

  // Inlined into `evaluate(_:trace:)`: called, its decision was returned into a temporary and
  // copied again, the trace part by unaligned moves that stall on the stores just made.
  @inline(__always)
  private func evaluate(_ facts: FactValues, _ program: Program, traced: Bool) -> PolicyDecision {
    guard facts.values.count == programs.factCount else {
      let values = ContiguousArray((0..<programs.factCount).map { facts[$0] })
      return values.withUnsafeBufferPointer { decide($0, program, traced) }
    }
    return facts.values.withUnsafeBufferPointer { decide($0, program, traced) }
  }

  private func decide(_ facts: UnsafeBufferPointer<Value?>, _ program: Program, _ traced: Bool)
    -> PolicyDecision
  {
    // The frame is set up here rather than through the generic `withFrame`, whose closure
    // context costs an untraced evaluation a noticeable share of its time.
    program.lets.withUnsafeBufferPointer { bodies in
      withUnsafeTemporaryAllocation(of: EvaluationFrame.LetState.self, capacity: bodies.count) {
        lets in
        lets.initialize(repeating: .pending)
        defer { lets.deinitialize() }
        // The recorder is made in the frame itself: made outside and copied in, its lists would
        // have two owners, and the first value recorded would copy each of them.
        var frame = EvaluationFrame(
          facts: facts, lets: lets, letBodies: bodies,
          recorder: traced
            ? TraceRecorder(
              factCount: programs.factCount, rules: program.conditions.count,
              expected: program.traceCapacity) : nil)
        return run(program, &frame, traced: traced)
      }
    }
  }

  /// The value `expression`, a node of this policy, has for `facts`; nil when it is unknown.
  public func value(of expression: ResolvedExpression, facts: FactValues) -> Value? {
    // Compiled on demand: tests and explanations ask for a few values, not for every decision.
    let body = PolicyCompiler(policy: checked, tracing: false).compile(expression)
    var values = facts.values
    if values.count != checked.schema.factCount {
      values = ContiguousArray((0..<checked.schema.factCount).map { facts[$0] })
    }
    return withFrame(values, programs.plain, nil) { frame in body(&frame) }
  }

  /// Runs `body` in a frame over `values` for `program`: for evaluations outside the decision
  /// path, which sets up its own frame.
  func withFrame<Result>(
    _ values: ContiguousArray<Value?>, _ program: Program, _ recorder: TraceRecorder?,
    _ body: (inout EvaluationFrame) -> Result
  ) -> Result {
    values.withUnsafeBufferPointer { facts in
      program.lets.withUnsafeBufferPointer { bodies in
        withUnsafeTemporaryAllocation(
          of: EvaluationFrame.LetState.self, capacity: checked.lets.count
        ) { lets in
          lets.initialize(repeating: .pending)
          defer { lets.deinitialize() }
          var frame = EvaluationFrame(
            facts: facts, lets: lets, letBodies: bodies, recorder: recorder)
          return body(&frame)
        }
      }
    }
  }

  private func run(_ program: Program, _ frame: inout EvaluationFrame, traced: Bool)
    -> PolicyDecision
  {
    // Told rather than found out: comparing the frame's recorder with nil copies the recorder.
    if !traced {
      if let index = program.index {
        for rule in index.candidates(for: frame.facts[index.slot])
        where program.conditions.matches(rule, &frame) {
          return decision(rule, program.actions[rule], program.holds, &frame)
        }
        return decision(nil, program.otherwise, program.holds, &frame)
      }
      for rule in 0..<program.conditions.count where program.conditions.matches(rule, &frame) {
        return decision(rule, program.actions[rule], program.holds, &frame)
      }
      return decision(nil, program.otherwise, program.holds, &frame)
    }
    for rule in 0..<program.conditions.count {
      frame.recorder?.beginRule(rule)
      let result = program.conditions.tracedValue(rule, &frame)
      frame.recorder?.endRule(result)
      if case .boolean(true) = result {
        return decision(rule, program.actions[rule], program.holds, &frame)
      }
    }
    return decision(nil, program.otherwise, program.holds, &frame)
  }

  private func decision(
    _ rule: Int?, _ actions: CompiledActions, _ holds: ContiguousArray<CompiledExpression>,
    _ frame: inout EvaluationFrame
  ) -> PolicyDecision {
    frame.recorder?.beginActions()
    var decided = actions.fixed
    for action in actions.computed {
      decided[action.position] = .set(field: action.field, value: action.value(&frame))
    }
    if let follow = actions.follow {
      let value = frame.facts[follow.slot]
      frame.recorder?.read(follow.slot, value)
      // The checker makes the rule test that the fact is there; were it not, nothing is sent.
      let answer: DecidedAction
      if case .enumeration(let ordinal)? = value, follow.answers.indices.contains(ordinal) {
        answer = follow.answers[ordinal]
      } else {
        answer = .withholdReply
      }
      decided[follow.position] = answer
      // Nothing is sent, so nothing is set or held.
      if answer == .withholdReply { decided = [.withholdReply] }
    }
    let hold = holding(decided, holds, &frame)
    if hold != nil, !decided.contains(where: \.isHoldForReview) { decided.append(.holdForReview) }
    var decision = PolicyDecision(trace: frame.recorder?.finish(), rule: rule, actions: decided)
    decision.hold = hold
    return decision
  }

  /// The first `hold` clause whose condition is true, for a decision that sends something:
  /// one that withholds the reply has nothing to hold.
  private func holding(
    _ decided: [DecidedAction], _ holds: ContiguousArray<CompiledExpression>,
    _ frame: inout EvaluationFrame
  ) -> Int? {
    guard !holds.isEmpty, !decided.contains(where: \.isWithholdReply) else { return nil }
    for index in holds.indices {
      frame.recorder?.beginHold(index)
      let result = holds[index](&frame)
      frame.recorder?.endHold(result)
      if case .boolean(true) = result { return index }
    }
    return nil
  }

  /// The name of the `hold` clause at `index`.
  public func holdName(_ index: Int) -> String { checked.holds[index].name }

  /// The name of the rule at `index`, or "otherwise" for nil.
  public func ruleName(_ index: Int?) -> String {
    index.map { checked.rules[$0].name } ?? "otherwise"
  }
}
