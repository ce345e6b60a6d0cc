/// What one unit of each currency is worth in a common unit, from the configuration's
/// `currencies`: with them, money in one currency compares with money in another.
public struct CurrencyRates: Hashable, Sendable {
  /// The worth of one unit of each currency, by ISO 4217 code.
  public let perUnit: [String: Double]

  /// No rates: money compares only within one currency.
  public static let none = CurrencyRates([:])

  /// Rates giving the worth of one unit of each currency in a common unit; each must be
  /// positive and finite (the configuration reader refuses others).
  public init(_ perUnit: [String: Double]) {
    self.perUnit = perUnit.filter { $0.value.isFinite && $0.value > 0 }
  }

  /// Whether there are no rates.
  public var isEmpty: Bool { perUnit.isEmpty }

  /// Whether money in `a` and in `b` can be compared: the same currency, or both have a rate.
  public func connects(_ a: String, _ b: String) -> Bool {
    a == b || (perUnit[a] != nil && perUnit[b] != nil)
  }

  /// `milli` thousandths of `from`, in thousandths of `to`, rounded to the nearest; nil
  /// without a rate for either or when the result is out of range.
  public func convert(_ milli: Int64, from: String, to: String) -> Int64? {
    guard from != to else { return milli }
    guard let source = perUnit[from], let target = perUnit[to] else { return nil }
    let converted = (Double(milli) * source / target).rounded()
    guard converted.isFinite, abs(converted) < 9.2e18 else { return nil }
    return Int64(converted)
  }
}
