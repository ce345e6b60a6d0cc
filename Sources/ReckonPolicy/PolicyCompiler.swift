/// Turns a checked policy into closures with every name already resolved to a slot, so evaluation
/// does no lookups. A policy is compiled twice, with and without trace recording, so deciding
/// without a trace pays nothing for it.
struct PolicyCompiler {
  let policy: CheckedPolicy
  let tracing: Bool
  /// Whether tests of one fact against constants are compiled as one closure each; off, every
  /// node is its own closure, the form the tests hold the one-closure form to.
  var testsFactsInPlace = true
  private var compiledLets: [CompiledExpression] = []

  init(policy: CheckedPolicy, tracing: Bool) {
    self.policy = policy
    self.tracing = tracing
  }

  /// Compiles `policy` both ways.
  static func compile(_ policy: CheckedPolicy, testsFactsInPlace: Bool = true) -> CompiledPolicy {
    var plain = PolicyCompiler(policy: policy, tracing: false)
    var traced = PolicyCompiler(policy: policy, tracing: true)
    plain.testsFactsInPlace = testsFactsInPlace
    traced.testsFactsInPlace = testsFactsInPlace
    return CompiledPolicy(
      checked: policy, plain: plain.compileProgram(), traced: traced.compileProgram())
  }

  mutating func compileProgram() -> CompiledPolicy.Program {
    for checked in policy.lets {
      compiledLets.append(compile(checked.value))
    }
    var program = CompiledPolicy.Program(
      conditions: RuleConditions(policy.rules, lets: policy.lets) { compile($0) },
      actions: policy.rules.map { compile($0.actions) }, otherwise: compile(policy.otherwise),
      lets: ContiguousArray(compiledLets),
      holds: ContiguousArray(policy.holds.map { compile($0.condition) }),
      index: tracing ? nil : RuleIndex(policy))
    // Enough for the rules a typical decision tries before one matches; more grows the list.
    if tracing { program.traceCapacity = min(32, traceSizes().reduce(0, +)) }
    return program
  }

  /// For each rule, about the most values trying it can record: each node that records itself,
  /// and for a `let` it names, the let's own (it is worked out, and recorded, by the first rule
  /// that reads it). Capped, as lets built from lets count each other many times over; a list
  /// that needs more grows.
  private func traceSizes() -> ContiguousArray<Int> {
    let most = 64
    var letSizes: [Int] = []
    func size(_ node: ResolvedExpression) -> Int {
      let own = Self.recordsItself(node) ? 1 : 0
      if case .letReference(let index) = node.kind {
        return min(most, own + (letSizes.indices.contains(index) ? letSizes[index] : 0))
      }
      return node.children.reduce(own) { min(most, $0 + size($1)) }
    }
    for checked in policy.lets { letSizes.append(size(checked.value)) }
    return ContiguousArray(policy.rules.map { size($0.condition) })
  }

  private func compile(_ actions: [CheckedAction]) -> CompiledPolicy.CompiledActions {
    var fixed: [DecidedAction] = []
    var computed: [(position: Int, field: FieldDescriptor, value: CompiledExpression)] = []
    var follow: (position: Int, slot: Int, answers: [DecidedAction])?
    for action in actions {
      switch action {
      case .choose(let ordinal, let name): fixed.append(.choose(ordinal: ordinal, name: name))
      case .replyWithoutChoice: fixed.append(.replyWithoutChoice)
      case .withholdReply: fixed.append(.withholdReply)
      case .holdForReview: fixed.append(.holdForReview)
      case .set(let field, let value):
        // The trace lists every value a `set` computed, as `actionValues`.
        let body = compile(value)
        computed.append(
          (fixed.count, field, Self.recordsItself(value) ? body : traced(value.id, body)))
        fixed.append(.set(field: field, value: nil))
      case .follow(let slot, let answers):
        follow = (fixed.count, slot, answers.map(Self.decided))
        fixed.append(.replyWithoutChoice)
      }
    }
    return CompiledPolicy.CompiledActions(fixed: fixed, computed: computed, follow: follow)
  }

  /// A followed answer as decided: a choice, a reply without one, or no reply.
  private static func decided(_ answer: CheckedAction) -> DecidedAction {
    switch answer {
    case .choose(let ordinal, let name): .choose(ordinal: ordinal, name: name)
    case .withholdReply: .withholdReply
    default: .replyWithoutChoice
    }
  }

  func compile(_ expression: ResolvedExpression) -> CompiledExpression {
    if let test = compileFactTest(expression) { return test }
    let id = expression.id
    switch expression.kind {
    case .constant(let value):
      return { _ in value }
    case .fact(let slot):
      guard tracing else { return { frame in frame.facts[slot] } }
      // A boolean fact is a condition in its own right, so its value goes into the trace too.
      let isCondition = expression.type == .boolean
      return { frame in
        let value = frame.facts[slot]
        frame.recorder?.read(slot, value)
        if isCondition { frame.recorder?.record(id, value) }
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
      if !tracing { return compileChain(expression, decisive: false) }
      return traced(id, compileLogic(compile(left), compile(right), decisive: false))
    case .or(let left, let right):
      if !tracing { return compileChain(expression, decisive: true) }
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
      if !tracing, case .fact(let slot) = subject.kind {
        return { frame in .boolean((frame.facts[slot] == nil) != negated) }
      }
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

  /// A test of one fact against constants as one closure, where it records what the nodes it
  /// stands for would (the fact read, the `let` naming it, its own value). Untraced, only a
  /// test through a `let` is made here: a fact's own tests have their paths below.
  private func compileFactTest(_ expression: ResolvedExpression) -> CompiledExpression? {
    guard testsFactsInPlace, let test = FactTest(expression, lets: policy.lets) else { return nil }
    let slot = test.slot
    let subject = FactTest.subjectNode(of: expression)
    guard tracing else {
      guard case .letReference? = FactTest.subject(of: expression)?.kind else { return nil }
      return { frame in test.tracedValue(frame.facts[slot]) }
    }
    let node = expression.id
    return { frame in
      let fact = frame.facts[slot]
      frame.recorder?.read(slot, fact)
      if let subject { frame.recorder?.record(subject, fact) }
      let value = test.tracedValue(fact)
      frame.recorder?.record(node, value)
      return value
    }
  }

  /// Whether the compiled node already records its value in the trace.
  private static func recordsItself(_ expression: ResolvedExpression) -> Bool {
    switch expression.kind {
    case .fact: expression.type == .boolean
    case .letReference, .not, .and, .or, .compare, .membership, .missingTest: true
    case .constant, .negate, .arithmetic, .call: false
    }
  }

  private func compileLetReference(_ index: Int, _ id: Int) -> CompiledExpression {
    guard tracing else {
      return { frame in
        if case .done(let known) = frame.lets[index] { return known }
        let body = frame.letBodies[index]
        let value = body(&frame)
        frame.lets[index] = .done(value)
        return value
      }
    }
    return { frame in
      let value: Value?
      if case .done(let known) = frame.lets[index] {
        value = known
      } else {
        let body = frame.letBodies[index]
        value = body(&frame)
        frame.lets[index] = .done(value)
      }
      frame.recorder?.record(id, value)
      return value
    }
  }

  /// Three-valued `and` (decisive false) and `or` (decisive true): the decisive value on either
  /// side wins even when the other is unknown.
  /// A whole `and` (or `or`) chain as one loop over its parts: one call instead of one per link.
  /// Kleene logic makes the chain's value the same as the nested form's, evaluated left to right.
  private func compileChain(_ expression: ResolvedExpression, decisive: Bool) -> CompiledExpression
  {
    var parts: [ResolvedExpression] = []
    func flatten(_ node: ResolvedExpression) {
      switch (node.kind, decisive) {
      case (.and(let left, let right), false), (.or(let left, let right), true):
        flatten(left)
        flatten(right)
      default:
        parts.append(node)
      }
    }
    flatten(expression)
    let compiled = ContiguousArray(parts.map(compile))
    return { frame in
      var unknown = false
      for index in compiled.indices {
        switch compiled[index](&frame) {
        case .boolean(let value)? where value == decisive: return .boolean(decisive)
        case .boolean?: continue
        default: unknown = true
        }
      }
      return unknown ? nil : .boolean(!decisive)
    }
  }

  private func compileLogic(
    _ left: @escaping CompiledExpression, _ right: @escaping CompiledExpression, decisive: Bool
  )
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

  private func compileComparison(
    _ op: ComparisonOperator, _ left: ResolvedExpression, _ right: ResolvedExpression
  )
    -> CompiledExpression
  {
    if !tracing, case .fact(let slot) = left.kind, let constant = right.constantValue,
      let direct = compileFactComparison(op, slot, constant)
    {
      return direct
    }
    let lhs = compile(left)
    if case .enumeration(let ordinal)? = right.constantValue, op == .equal || op == .notEqual {
      let wanted = op == .equal
      return { frame in
        guard case .enumeration(let actual)? = lhs(&frame) else { return nil }
        return .boolean((actual == ordinal) == wanted)
      }
    }
    let rates = policy.schema.currencyRates
    if left.type == .money, !rates.isEmpty {
      let rhs = compile(right)
      return { frame in
        guard let a = lhs(&frame), let b = rhs(&frame) else { return nil }
        return ValueOperations.compare(op, a, b, rates: rates).map(Value.boolean)
      }
    }
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

  /// A fact compared with a constant, read straight from its slot: the commonest condition.
  private func compileFactComparison(_ op: ComparisonOperator, _ slot: Int, _ constant: Value)
    -> CompiledExpression?
  {
    if case .enumeration(let ordinal) = constant, op == .equal || op == .notEqual {
      let wanted = op == .equal
      return { frame in
        guard case .enumeration(let actual)? = frame.facts[slot] else { return nil }
        return .boolean((actual == ordinal) == wanted)
      }
    }
    guard let limit = constant.orderedNumber, ![.startsWith, .endsWith, .contains].contains(op)
    else { return nil }
    return { frame in
      guard let actual = frame.facts[slot]?.orderedNumber else { return nil }
      return .boolean(ValueOperations.compareNumbers(op, actual, limit))
    }
  }

  private func compileMembership(
    _ negated: Bool, _ subject: ResolvedExpression, _ members: [ResolvedExpression]
  )
    -> CompiledExpression
  {
    let inner = compile(subject)
    let constants = members.compactMap(\.constantValue)
    let ordinals = constants.compactMap {
      if case .enumeration(let ordinal) = $0 { ordinal } else { nil }
    }
    if ordinals.count == members.count, ordinals.allSatisfy({ (0..<64).contains($0) }) {
      let mask = ordinals.reduce(UInt64(0)) { $0 | (1 << UInt64($1)) }
      if !tracing, case .fact(let slot) = subject.kind {
        return { frame in
          guard case .enumeration(let ordinal)? = frame.facts[slot], (0..<64).contains(ordinal)
          else {
            return nil
          }
          return .boolean((mask & (1 << UInt64(ordinal)) != 0) != negated)
        }
      }
      return { frame in
        guard case .enumeration(let ordinal)? = inner(&frame), (0..<64).contains(ordinal) else {
          return nil
        }
        return .boolean((mask & (1 << UInt64(ordinal)) != 0) != negated)
      }
    }
    if constants.count == members.count {
      return { frame in
        guard let value = inner(&frame) else { return nil }
        return ValueOperations.isMember(value, of: constants).map { .boolean($0 != negated) }
      }
    }
    let compiled = members.map(compile)
    return { frame in
      guard let value = inner(&frame) else { return nil }
      var sawUnknown = false
      for member in compiled {
        guard let candidate = member(&frame),
          let isMember = ValueOperations.isMember(value, of: [candidate])
        else {
          sawUnknown = true
          continue
        }
        if isMember { return .boolean(!negated) }
      }
      return sawUnknown ? nil : .boolean(negated)
    }
  }

  private func traced(_ id: Int, _ body: @escaping CompiledExpression) -> CompiledExpression {
    guard tracing else { return body }
    return { frame in
      let value = body(&frame)
      frame.recorder?.record(id, value)
      return value
    }
  }
}

extension Value {
  /// The number inside a number, percent, duration or timestamp; the checker guarantees both
  /// sides of a comparison are of one of these kinds together.
  var orderedNumber: Double? {
    switch self {
    case .number(let n), .percent(let n), .duration(let n), .timestamp(let n): n
    default: nil
    }
  }
}
