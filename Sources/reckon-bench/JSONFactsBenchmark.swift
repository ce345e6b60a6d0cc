import Foundation
import ReckonFacts

/// `reckon-bench json-facts [--entries N] [--runs R]`: the time to load a JSON facts file of N
/// entries by transaction id (each with the facts an app database gives: consent, delivery,
/// usage, account age, money spent and refunded, a last use), as `JSONFileFactSource` reads it
/// at start and after each change; prints the median of R loads and the rate in MB/s.
func runJSONFactsBenchmark(options: BenchmarkOptions) async throws {
  let entries = options.int("entries", 100_000)
  let runs = options.int("runs", 5)
  let path = ScratchFiles.database("bench-json-facts") + ".json"
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
  let megabytes = Double(text.utf8.count) / 1_048_576
  var seconds: [Double] = []
  for _ in 0..<runs {
    let started = Date()
    let source = try JSONFileFactSource(name: "bench", path: path, schema: .standard)
    seconds.append(Date().timeIntervalSince(started))
    let found = source.lookup(
      RequestKeys(
        transactionId: "2000000000000000", originalTransactionId: nil, appAccountToken: nil,
        productId: nil, bundleId: nil))
    if found.isEmpty { print("warning: the first entry was not found") }
  }
  let median = seconds.sorted()[seconds.count / 2]
  print(
    String(
      format: "%d entries, %.1f MB: loaded in %.3f s (median of %d), %.1f MB/s "
        + "(target: >= 100 MB/s, the 100,000-entry file in <= 0.3 s)",
      entries, megabytes, median, runs, megabytes / median))
}
