/// Whole numbers written for people, in groups of three digits: 1,234,567.
public enum GroupedNumber {
  /// `value` with a comma between each group of three digits.
  public static func text(_ value: Int) -> String {
    let digits = String(value.magnitude)
    var grouped = ""
    for (offset, character) in digits.enumerated() {
      if offset > 0, (digits.count - offset) % 3 == 0 { grouped.append(",") }
      grouped.append(character)
    }
    return (value < 0 ? "-" : "") + grouped
  }
}
