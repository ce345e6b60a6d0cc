/// The money of one currency in a group of requests, in milliunits as Apple gives prices:
/// what the customers paid for the purchases they asked to have refunded, and what stayed paid
/// after Apple's verdicts. Currencies are never added together.
public struct OutcomeMoney: Hashable, Sendable {
  /// Requests whose purchase carried a price in this currency.
  public var requests = 0
  /// What those customers paid.
  public var atStake: Int64 = 0
  /// What stayed paid: the whole price of a refund Apple declined, or reversed later; of a
  /// prorated refund, the share Apple did not give back (by its revocationPercentage). A full
  /// refund, a prorated one without a percentage, a seat refund and a request with no outcome
  /// yet keep nothing counted here.
  public var kept: Int64 = 0

  /// Counts a request that paid `price`, of which `kept` stayed paid.
  mutating func add(_ price: Int64, kept: Int64) {
    requests += 1
    atStake &+= price
    self.kept &+= kept
  }

  /// These sums and `other`'s together.
  func adding(_ other: OutcomeMoney) -> OutcomeMoney {
    OutcomeMoney(
      requests: requests + other.requests, atStake: atStake &+ other.atStake,
      kept: kept &+ other.kept)
  }

  /// What of `price` stayed paid after `request`'s outcome.
  static func kept(_ price: Int64, _ request: ReportedRequest) -> Int64 {
    if request.declined || request.reversed { return price }
    guard request.refunded, request.prorated, let percentage = request.revocationPercentage,
      (0...100_000).contains(percentage)
    else { return 0 }
    // revocationPercentage is in milliunits of a percent: 100,000 is the whole price. The
    // share is rounded to the nearest milliunit, half away from zero: cut, every prorated
    // refund's share would lean low, and a report's total with them.
    let share = price * Int64(100_000 - percentage)
    return (share >= 0 ? share + 50_000 : share - 50_000) / 100_000
  }
}

extension OutcomeReport {
  /// A sum of milliunits as people read it, to the hundredth (a prorated share kept may have
  /// a third decimal), with thousands separators: `1,234.57`. JSON and CSV keep it exact.
  static func money(_ milli: Int64) -> String {
    let rounded = (milli >= 0 ? milli + 5 : milli - 5) / 10 * 10
    return DryRunText.money(Int(rounded))
  }
}

extension OutcomeMoney {
  /// The CSV header columns of money per currency, a pair each (`,at_stake_EUR,kept_EUR`),
  /// quoted when a currency as stored needs it.
  static func csvHeader(_ currencies: [String]) -> String {
    currencies.map {
      "," + DryRunRows.escape("at_stake_\($0)") + "," + DryRunRows.escape("kept_\($0)")
    }.joined()
  }
}
