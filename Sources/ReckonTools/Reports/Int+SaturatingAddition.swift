import ReckonEngine

extension Int {
  /// The sum, held at `Int.max` or `Int.min` where it would overflow: a price is whatever a
  /// payload says, and a sum of absurd ones must not stop the report.
  func addingSaturated(_ other: Int) -> Int {
    let (sum, overflow) = addingReportingOverflow(other)
    return overflow ? (other > 0 ? .max : .min) : sum
  }
}
