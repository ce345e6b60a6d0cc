import Foundation

/// The JSON facts file the `json-facts` benchmark reads: `entries` entries by transaction id, the
/// ids `PastRequestGenerator` gives its requests, each with the facts an app database gives
/// (consent, delivery, usage, account age, money spent and refunded, a last use).
enum JSONFactsBenchmarkFile {
  /// Writes the file at `path` and returns its size in bytes.
  static func write(entries: Int, to path: String) throws -> Int {
    var text = #"{"byTransactionId": {"#
    let statuses = ["DELIVERED", "UNDELIVERED_QUALITY_ISSUE", "DELIVERED", "DELIVERED"]
    for index in 0..<entries {
      if index > 0 { text += ",\n" }
      text += #""\#(2_000_000_000_000_000 + index)": {"customer.consented": \#(index % 7 != 0), "#
      text += #""delivery.status": "\#(statuses[index % statuses.count])", "#
      text += #""product.sample_offered": false, "usage.consumed": "\#(index % 101)%", "#
      text += #""usage.consumed_units": \#(index % 500), "#
      text += #""customer.account_age": "\#(index % 900) days", "#
      text += #""customer.lifetime_spent": "\#(index % 200).99 USD", "#
      text += #""customer.lifetime_refunded": "\#(index % 20) USD", "#
      text += #""usage.last_used": "2026-11-\#(String(format: "%02d", index % 28 + 1))T10:00:00Z"}"#
    }
    text += "}}\n"
    try text.write(toFile: path, atomically: true, encoding: .utf8)
    return text.utf8.count
  }
}
