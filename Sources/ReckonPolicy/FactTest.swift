/// A condition that reads one fact and tests it against constants: `delivery.status ==
/// DELIVERED`, `reason in [...]`, `usage.consumed > 0%`, `customer.override is missing`, a
/// boolean fact alone. The commonest parts of a rule, tested in place rather than through
/// compiled closures.
enum FactTest: Sendable {
  case missing(slot: Int, negated: Bool)
  case enumeration(slot: Int, ordinal: Int, equal: Bool)
  /// An enumeration among ordinals below 64, as bits.
  case members(slot: Int, mask: UInt64, negated: Bool)
  /// An ordered comparison with a number, percentage, duration or time; its kind is kept for the
  /// traced program, which compares values as the generic comparison does.
  case number(slot: Int, op: ComparisonOperator, limit: Double, kind: NumberKind)
  /// A boolean fact used as a condition.
  case flag(slot: Int)

  /// The kinds of value held as a number.
  enum NumberKind: Sendable {
    case number, percent, duration, timestamp

    init?(_ value: Value) {
      switch value {
      case .number: self = .number
      case .percent: self = .percent
      case .duration: self = .duration
      case .timestamp: self = .timestamp
      default: return nil
      }
    }

    func value(_ number: Double) -> Value {
      switch self {
      case .number: .number(number)
      case .percent: .percent(number)
      case .duration: .duration(number)
      case .timestamp: .timestamp(number)
      }
    }
  }

  /// The test `expression` makes, if it is one of these shapes; a fact may be named through a
  /// `let` that is the fact alone (`let used = usage.consumed`), unless it is a boolean.
  init?(_ expression: ResolvedExpression, lets: [CheckedLet]) {
    let slot = { (subject: ResolvedExpression) in Self.slot(of: subject, lets: lets) }
    switch expression.kind {
    case .missingTest(let negated, let subject):
      guard let slot = slot(subject) else { return nil }
      self = .missing(slot: slot, negated: negated)
    case .compare(let op, let left, let right):
      guard let slot = slot(left), let constant = right.constantValue else { return nil }
      if case .enumeration(let ordinal) = constant, op == .equal || op == .notEqual {
        self = .enumeration(slot: slot, ordinal: ordinal, equal: op == .equal)
      } else if let limit = constant.orderedNumber, let kind = NumberKind(constant),
        ![.startsWith, .endsWith, .contains].contains(op)
      {
        self = .number(slot: slot, op: op, limit: limit, kind: kind)
      } else {
        return nil
      }
    case .membership(let negated, let subject, let members):
      guard let slot = slot(subject) else { return nil }
      var mask: UInt64 = 0
      for member in members {
        guard case .enumeration(let ordinal)? = member.constantValue, (0..<64).contains(ordinal)
        else { return nil }
        mask |= 1 << UInt64(ordinal)
      }
      self = .members(slot: slot, mask: mask, negated: negated)
    case .fact(let slot) where expression.type == .boolean:
      self = .flag(slot: slot)
    default:
      return nil
    }
  }

  /// The slot of the fact `subject` reads, itself or through a `let` that is the fact alone.
  private static func slot(of subject: ResolvedExpression, lets: [CheckedLet]) -> Int? {
    switch subject.kind {
    case .fact(let slot): return slot
    case .letReference(let index):
      guard lets.indices.contains(index), case .fact(let slot) = lets[index].value.kind,
        lets[index].value.type != .boolean
      else { return nil }
      return slot
    default: return nil
    }
  }

  /// The node recorded with the fact's value before the test's own, in a trace: the fact, when
  /// it is a boolean (`flag is missing`), or the `let` naming it; nil for none.
  static func subjectNode(of expression: ResolvedExpression) -> Int? {
    guard let subject = subject(of: expression) else { return nil }
    switch subject.kind {
    case .fact: return subject.type == .boolean ? subject.id : nil
    case .letReference: return subject.id
    default: return nil
    }
  }

  /// What a missing test, a comparison or a membership test tests; nil for other nodes.
  static func subject(of expression: ResolvedExpression) -> ResolvedExpression? {
    switch expression.kind {
    case .missingTest(_, let subject), .compare(_, let subject, _), .membership(_, let subject, _):
      subject
    default: nil
    }
  }

  /// The slot of the fact it reads.
  var slot: Int {
    switch self {
    case .missing(let slot, _), .enumeration(let slot, _, _), .members(let slot, _, _),
      .number(let slot, _, _, _), .flag(let slot):
      slot
    }
  }

  /// Whether the test is true of the fact's value; false when it is false or unknown.
  @inline(__always)
  func holds(_ value: Value?) -> Bool {
    switch self {
    case .missing(_, let negated):
      return (value == nil) != negated
    case .enumeration(_, let ordinal, let equal):
      guard case .enumeration(let actual)? = value else { return false }
      return (actual == ordinal) == equal
    case .members(_, let mask, let negated):
      guard case .enumeration(let ordinal)? = value, (0..<64).contains(ordinal) else {
        return false
      }
      return (mask & (1 << UInt64(ordinal)) != 0) != negated
    case .number(_, let op, let limit, _):
      guard let actual = value?.orderedNumber else { return false }
      return ValueOperations.compareNumbers(op, actual, limit)
    case .flag:
      if case .boolean(true)? = value { return true }
      return false
    }
  }

  /// The test's value, as the traced program's nodes work it out: true, false, or nil for
  /// unknown.
  func tracedValue(_ value: Value?) -> Value? {
    switch self {
    case .missing(_, let negated):
      return .boolean((value == nil) != negated)
    case .enumeration(_, let ordinal, let equal):
      guard case .enumeration(let actual)? = value else { return nil }
      return .boolean((actual == ordinal) == equal)
    case .members(_, let mask, let negated):
      guard case .enumeration(let ordinal)? = value, (0..<64).contains(ordinal) else {
        return nil
      }
      return .boolean((mask & (1 << UInt64(ordinal)) != 0) != negated)
    case .number(_, let op, let limit, let kind):
      guard let actual = value else { return nil }
      return ValueOperations.compare(op, actual, kind.value(limit)).map(Value.boolean)
    case .flag:
      return value
    }
  }
}
