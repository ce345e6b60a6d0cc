import Foundation
import ReckonFacts

/// `reckon-bench json-facts [--entries N] [--runs R] [--dry-run]`: the time to load a JSON facts
/// file of N entries by transaction id (`JSONFactsBenchmarkFile`), as `JSONFileFactSource` reads
/// it at start and after each change; prints the median of R loads and the rate in MB/s. With
/// `--dry-run`, also a dry-run of N requests against the file (`JSONFactsDryRunBenchmark`).
func runJSONFactsBenchmark(options: BenchmarkOptions) async throws {
  let entries = options.int("entries", 100_000)
  let runs = options.int("runs", 5)
  let path = ScratchFiles.file("bench-json-facts", extension: "json")
  let megabytes = Double(try JSONFactsBenchmarkFile.write(entries: entries, to: path)) / 1_048_576
  var seconds: [Double] = []
  for _ in 0..<runs {
    let started = Date()
    let source = try JSONFileFactSource(name: "bench", path: path, schema: .standard)
    seconds.append(Date().timeIntervalSince(started))
    let found = try source.lookup(
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
  if options.flag("dry-run") {
    try await JSONFactsDryRunBenchmark.run(factsPath: path, requests: entries, runs: runs)
  }
}
