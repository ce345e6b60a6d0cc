import Foundation

/// The meaning of every operator on values, shared by constant folding and evaluation.
///
/// Every function is total: an operation that has no sensible result (division by zero, money
/// in two currencies, an overflow) yields `nil`, which the evaluator treats as unknown.
enum ValueOperations {
  /// The result type of `left op right`, or nil if the operator does not apply.
  static func resultType(_ op: ArithmeticOperator, _ left: ValueType, _ right: ValueType)
    -> ValueType?
  {
    switch (op, left, right) {
    case (_, .number, .number): return .number
    case (.add, .percent, .percent), (.subtract, .percent, .percent): return .percent
    case (.add, .money, .money), (.subtract, .money, .money): return .money
    case (.add, .duration, .duration), (.subtract, .duration, .duration): return .duration
    case (.add, .timestamp, .duration), (.add, .duration, .timestamp),
      (.subtract, .timestamp, .duration):
      return .timestamp
    case (.subtract, .timestamp, .timestamp): return .duration
    case (.multiply, .percent, .number), (.multiply, .number, .percent),
      (.divide, .percent, .number):
      return .percent
    case (.multiply, .money, .number), (.multiply, .number, .money), (.divide, .money, .number):
      return .money
    case (.multiply, .money, .percent), (.multiply, .percent, .money): return .money
    case (.multiply, .duration, .number), (.multiply, .number, .duration),
      (.divide, .duration, .number):
      return .duration
    case (.divide, .percent, .percent), (.divide, .money, .money), (.divide, .duration, .duration):
      return .number
    default: return nil
    }
  }

  /// `left op right`, or nil when it has no value.
  static func arithmetic(_ op: ArithmeticOperator, _ left: Value, _ right: Value) -> Value? {
    switch (left, right) {
    case (.number(let a), .number(let b)): return finite(apply(op, a, b)).map(Value.number)
    case (.percent(let a), .percent(let b)):
      return op == .divide
        ? finite(apply(op, a, b)).map(Value.number) : finite(apply(op, a, b)).map(Value.percent)
    case (.percent(let a), .number(let b)), (.number(let b), .percent(let a)):
      return finite(apply(op, a, b)).map(Value.percent)
    case (.duration(let a), .duration(let b)):
      return op == .divide
        ? finite(apply(op, a, b)).map(Value.number) : finite(apply(op, a, b)).map(Value.duration)
    case (.duration(let a), .number(let b)), (.number(let b), .duration(let a)):
      return finite(apply(op, a, b)).map(Value.duration)
    case (.timestamp(let a), .duration(let b)), (.duration(let b), .timestamp(let a)):
      return finite(apply(op, a, b)).map(Value.timestamp)
    case (.timestamp(let a), .timestamp(let b)):
      return finite(a - b).map { Value.duration(wholeMicroseconds($0)) }
    case (.money(let a, let currency), .money(let b, let other)):
      return moneyArithmetic(op, a, b, currency, other)
    case (.money(let milli, let currency), .number(let factor)),
      (.number(let factor), .money(let milli, let currency)):
      return scaledMoney(milli, by: factor, dividing: op == .divide, currency: currency)
    case (.money(let milli, let currency), .percent(let share)),
      (.percent(let share), .money(let milli, let currency)):
      return scaledMoney(milli, by: share / 100, dividing: false, currency: currency)
    default:
      return nil
    }
  }

  private static func apply(_ op: ArithmeticOperator, _ a: Double, _ b: Double) -> Double {
    switch op {
    case .add: a + b
    case .subtract: a - b
    case .multiply: a * b
    case .divide: a / b
    }
  }

  private static func finite(_ number: Double) -> Double? {
    number.isFinite ? number : nil
  }

  /// The time between two times, in whole microseconds: a time of this century held as seconds
  /// in a double is exact to about a quarter of one, so the digits past it are noise (700 ms
  /// between two times came out 0.7000000476837158 s, and failed `<= 0.7 seconds`).
  static func wholeMicroseconds(_ seconds: Double) -> Double {
    let micro = (seconds * 1_000_000).rounded()
    return micro.isFinite ? micro / 1_000_000 : seconds
  }

  /// `number` to 15 significant digits: what a product owner means by it. Binary floating point
  /// holds few decimals exactly (`0.1 + 0.2` is `0.30000000000000004`, `33.3 * 3` is
  /// `99.89999999999999`); 15 digits is all a double keeps of any decimal, so comparisons made on
  /// these agree with decimal arithmetic. Arithmetic itself keeps full precision, so `1 / 3 * 3`
  /// is still exactly 1.
  static func decimal(_ number: Double) -> Double {
    guard number.isFinite, number != 0 else { return number }
    let digits = 15 - Int(log10(abs(number)).rounded(.up))
    // Beyond these a double has no digits after the 15th to drop, or the scale overflows.
    guard digits > 0, digits < 300 else { return number }
    let scale = pow(10, Double(digits))
    let scaled = (number * scale).rounded()
    guard scaled.isFinite else { return number }
    return scaled / scale
  }

  /// `a` and `b` compared as decimals of 15 significant digits; cheap unless they are so close
  /// that the rounding decides.
  private static func decimalOrder(_ a: Double, _ b: Double) -> (Double, Double) {
    if a == b || abs(a - b) > 1e-13 * max(abs(a), abs(b)) { return (a, b) }
    return (decimal(a), decimal(b))
  }

  private static func moneyArithmetic(
    _ op: ArithmeticOperator, _ a: Int64, _ b: Int64, _ currency: String, _ other: String
  ) -> Value? {
    guard currency == other else { return nil }
    switch op {
    case .add:
      let (sum, overflow) = a.addingReportingOverflow(b)
      return overflow ? nil : .money(sum, currency: currency)
    case .subtract:
      let (difference, overflow) = a.subtractingReportingOverflow(b)
      return overflow ? nil : .money(difference, currency: currency)
    case .divide:
      return b == 0 ? nil : .number(Double(a) / Double(b))
    case .multiply:
      return nil
    }
  }

  private static func scaledMoney(
    _ milli: Int64, by factor: Double, dividing: Bool, currency: String
  ) -> Value? {
    let scaled = dividing ? Double(milli) / factor : Double(milli) * factor
    guard scaled.isFinite, abs(scaled) < 9e15 else { return nil }
    return .money(Int64(scaled.rounded()), currency: currency)
  }

  /// `-value`, or nil when it has no value.
  static func negate(_ value: Value) -> Value? {
    switch value {
    case .number(let n): .number(-n)
    case .percent(let p): .percent(-p)
    case .duration(let d): .duration(-d)
    case .money(let milli, let currency): milli == .min ? nil : .money(-milli, currency: currency)
    default: nil
    }
  }

  /// Whether `left op right` holds, or nil when the two cannot be compared (money in two
  /// currencies, without `rates` for both).
  static func compare(
    _ op: ComparisonOperator, _ left: Value, _ right: Value, rates: CurrencyRates
  ) -> Bool? {
    guard case .money(_, let currency) = left, case .money(let milli, let other) = right,
      currency != other
    else { return compare(op, left, right) }
    guard let converted = rates.convert(milli, from: other, to: currency) else { return nil }
    return compare(op, left, .money(converted, currency: currency))
  }

  /// Whether `left op right` holds, or nil when the two cannot be compared (money in two currencies).
  static func compare(_ op: ComparisonOperator, _ left: Value, _ right: Value) -> Bool? {
    switch op {
    case .startsWith, .endsWith, .contains:
      guard case .text(let text) = left, case .text(let part) = right else { return nil }
      switch op {
      case .startsWith: return text.hasPrefix(part)
      case .endsWith: return text.hasSuffix(part)
      default: return part.isEmpty || text.contains(part)
      }
    case .equal, .notEqual:
      if case .money(_, let currency) = left, case .money(_, let other) = right, currency != other {
        return nil
      }
      if let (a, b) = decimalPair(left, right) { return (a == b) == (op == .equal) }
      return (left == right) == (op == .equal)
    case .less, .lessOrEqual, .greater, .greaterOrEqual:
      guard let (a, b) = orderedPair(left, right) else { return nil }
      switch op {
      case .less: return a < b
      case .lessOrEqual: return a <= b
      case .greater: return a > b
      default: return a >= b
      }
    }
  }

  /// Whether `value` equals one of `candidates`, or nil when none does and some cannot be compared
  /// with it (money in another currency), as `==` would say.
  static func isMember(_ value: Value, of candidates: [Value]) -> Bool? {
    var unknown = false
    for candidate in candidates {
      switch compare(.equal, value, candidate) {
      case true?: return true
      case false?: continue
      case nil: unknown = true
      }
    }
    return unknown ? nil : false
  }

  /// Whether `a op b` holds for two numbers of one kind, compared as decimals (see `decimal`).
  static func compareNumbers(_ op: ComparisonOperator, _ a: Double, _ b: Double) -> Bool {
    let (a, b) = decimalOrder(a, b)
    switch op {
    case .equal: return a == b
    case .notEqual: return a != b
    case .less: return a < b
    case .lessOrEqual: return a <= b
    case .greater: return a > b
    default: return a >= b
    }
  }

  /// Two values of one kind held as doubles, as decimals (see `decimal`); nil for other pairs.
  private static func decimalPair(_ left: Value, _ right: Value) -> (Double, Double)? {
    switch (left, right) {
    case (.number(let a), .number(let b)), (.percent(let a), .percent(let b)),
      (.duration(let a), .duration(let b)),
      (.timestamp(let a), .timestamp(let b)):
      return decimalOrder(a, b)
    default:
      return nil
    }
  }

  private static func orderedPair(_ left: Value, _ right: Value) -> (Double, Double)? {
    if let pair = decimalPair(left, right) { return pair }
    switch (left, right) {
    case (.money(let a, let currency), .money(let b, let other)) where currency == other:
      return (Double(a), Double(b))
    default:
      return nil
    }
  }

  /// The result of a built-in function, or nil when it has no value.
  static func call(_ builtin: Builtin, _ arguments: [Value]) -> Value? {
    switch builtin {
    case .round:
      guard arguments.count == 1 else { return nil }
      switch arguments[0] {
      case .number(let n): return .number(n.rounded())
      case .percent(let p): return .percent(p.rounded())
      default: return nil
      }
    case .min, .max:
      guard var best = arguments.first else { return nil }
      for candidate in arguments.dropFirst() {
        guard let isLess = compare(.less, candidate, best) else { return nil }
        if isLess == (builtin == .min) && candidate != best { best = candidate }
      }
      return best
    }
  }
}

extension Value {
  /// Whether `self == other` holds as a policy's `==` says: numbers, percents, durations and
  /// times as decimals of 15 significant digits, money exactly and only in one currency.
  public func isEqual(asTheLanguageCompares other: Value) -> Bool {
    ValueOperations.compare(.equal, self, other) == true
  }
}
