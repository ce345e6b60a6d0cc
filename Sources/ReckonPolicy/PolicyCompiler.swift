/// Turns a checked policy into closures with every name already resolved to a slot, so evaluation
/// does no lookups. Trace recording is one `nil` check per condition when off.
struct PolicyCompiler {
  let policy: CheckedPolicy
  private var compiledLets: [CompiledExpression] = []

  init(policy: CheckedPolicy) {
    self.policy = policy
  }

  mutating func compile() -> CompiledPolicy {
    for checked in policy.lets {
      compiledLets.append(compile(checked.value))
    }
    let rules = policy.rules.map { rule in
      CompiledPolicy.CompiledRule(condition: compile(rule.condition), actions: compile(rule.actions))
    }
    return CompiledPolicy(checked: policy, rules: rules, otherwise: compile(policy.otherwise))
  }

  private func compile(_ actions: [CheckedAction]) -> CompiledPolicy.CompiledActions {
    var fixed: [DecidedAction] = []
    var computed: [(position: Int, field: FieldDescriptor, value: CompiledExpression)] = []
    for action in actions {
      switch action {
      case .refund(let ordinal, let name): fixed.append(.refund(ordinal: ordinal, name: name))
      case .shareDataOnly: fixed.append(.shareDataOnly)
      case .doNotRespond: fixed.append(.doNotRespond)
      case .holdForReview: fixed.append(.holdForReview)
      case .set(let field, let value):
        computed.append((fixed.count, field, compile(value)))
        fixed.append(.set(field: field, value: nil))
      }
    }
    return CompiledPolicy.CompiledActions(fixed: fixed, computed: computed)
  }

  func compile(_ expression: ResolvedExpression) -> CompiledExpression {
    let id = expression.id
    switch expression.kind {
    case .constant(let value):
      return { _ in value }
    case .fact(let slot):
      return { frame in
        let value = frame.facts[slot]
        frame.recorder?.read(slot, value)
        frame.recorder?.record(id, value)
        return value
      }
    case .letReference(let index):
      return compileLetReference(index, id)
    case .negate(let operand):
      let inner = compile(operand)
      return { frame in inner(&frame).flatMap(ValueOperations.negate) }
    case .not(let operand):
      let inner = compile(operand)
      return traced(id) { frame in
        guard case .boolean(let flag) = inner(&frame) else { return nil }
        return .boolean(!flag)
      }
    case .and(let left, let right):
      return traced(id, compileLogic(compile(left), compile(right), decisive: false))
    case .or(let left, let right):
      return traced(id, compileLogic(compile(left), compile(right), decisive: true))
    case .arithmetic(let op, let left, let right):
      let (lhs, rhs) = (compile(left), compile(right))
      return { frame in
        guard let a = lhs(&frame), let b = rhs(&frame) else { return nil }
        return ValueOperations.arithmetic(op, a, b)
      }
    case .compare(let op, let left, let right):
      return traced(id, compileComparison(op, left, right))
    case .membership(let negated, let subject, let members):
      return traced(id, compileMembership(negated, subject, members))
    case .missingTest(let negated, let subject):
      let inner = compile(subject)
      return traced(id) { frame in .boolean((inner(&frame) == nil) != negated) }
    case .call(let builtin, let arguments):
      let compiled = arguments.map(compile)
      return { frame in
        var values: [Value] = []
        values.reserveCapacity(compiled.count)
        for argument in compiled {
          guard let value = argument(&frame) else { return nil }
          values.append(value)
        }
        return ValueOperations.call(builtin, values)
      }
    }
  }

  private func compileLetReference(_ index: Int, _ id: Int) -> CompiledExpression {
    let body = compiledLets[index]
    return { frame in
      let value: Value?
      if case .done(let known) = frame.lets[index] {
        value = known
      } else {
        value = body(&frame)
        frame.lets[index] = .done(value)
      }
      frame.recorder?.record(id, value)
      return value
    }
  }

  /// Three-valued `and` (decisive false) and `or` (decisive true): the decisive value on either
  /// side wins even when the other is unknown.
  private func compileLogic(_ left: @escaping CompiledExpression, _ right: @escaping CompiledExpression, decisive: Bool)
    -> CompiledExpression
  {
    { frame in
      let a = left(&frame)
      if case .boolean(decisive) = a { return a }
      let b = right(&frame)
      if case .boolean(decisive) = b { return b }
      guard a != nil, b != nil else { return nil }
      return .boolean(!decisive)
    }
  }

  private func compileComparison(_ op: ComparisonOperator, _ left: ResolvedExpression, _ right: ResolvedExpression)
    -> CompiledExpression
  {
    let lhs = compile(left)
    if let constant = right.constantValue {
      return { frame in
        guard let a = lhs(&frame) else { return nil }
        return ValueOperations.compare(op, a, constant).map(Value.boolean)
      }
    }
    let rhs = compile(right)
    return { frame in
      guard let a = lhs(&frame), let b = rhs(&frame) else { return nil }
      return ValueOperations.compare(op, a, b).map(Value.boolean)
    }
  }

  private func compileMembership(_ negated: Bool, _ subject: ResolvedExpression, _ members: [ResolvedExpression])
    -> CompiledExpression
  {
    let inner = compile(subject)
    let constants = members.compactMap(\.constantValue)
    if constants.count == members.count {
      return { frame in
        guard let value = inner(&frame) else { return nil }
        return .boolean(constants.contains(value) != negated)
      }
    }
    let compiled = members.map(compile)
    return { frame in
      guard let value = inner(&frame) else { return nil }
      var sawUnknown = false
      for member in compiled {
        guard let candidate = member(&frame) else {
          sawUnknown = true
          continue
        }
        if candidate == value { return .boolean(!negated) }
      }
      return sawUnknown ? nil : .boolean(negated)
    }
  }

  private func traced(_ id: Int, _ body: @escaping CompiledExpression) -> CompiledExpression {
    { frame in
      let value = body(&frame)
      frame.recorder?.record(id, value)
      return value
    }
  }
}
