import Foundation
import ReckonFacts

/// `reckon-bench facts`: facts for one request through the SQLite adapter (three queries), median
/// µs per request over 100,000 requests on a 1,000,000-row database, next to the same queries in
/// the `sqlite3` shell. Options: `--requests N`, `--runs N`, `--rebuild`.
func runFactsBenchmark(options: BenchmarkOptions) async throws {
  let requests = options.int("requests", 100_000)
  let runs = max(1, options.int("runs", 5))
  let database = try FactsBenchmarkDatabase.prepare(rebuild: options.flag("rebuild"))
  let queries = try FactsBenchmarkDatabase.exampleQueries()
  let keys = FactsBenchmarkDatabase.sampleKeys(count: requests)
  let schema = FactSchema(customFacts: [
    try FactSchema.customFact(named: "custom.vip", type: "boolean", declaredBy: "app-db")
  ])
  let source = try SQLiteFactSource(
    name: "app-db", settings: .init(path: database, queries: queries), schema: schema)
  print("database: \(database) (\(FactsBenchmarkDatabase.rowCounts(database)))")
  print(
    "requests: \(keys.count) per run, \(runs) runs, queries: \(queries.keys.sorted().joined(separator: ", "))"
  )

  var found = 0
  for key in keys.prefix(1_000) { found += try source.lookup(key).isEmpty ? 0 : 1 }
  precondition(found == min(1_000, keys.count), "every sampled request must find facts")

  let adapter = try measure(keys, runs: runs) { key in _ = try source.lookup(key) }
  print(report("SQLite adapter (three queries, one read transaction)", adapter, runs: runs))
  let raw = try FactsBenchmarkRaw(database: database, queries: queries)
  print(
    report(
      "same statements through the C API, no conversion",
      try measure(keys, runs: runs, raw.run), runs: runs))
  guard !options.flag("adapter-only") else { return }

  let sample = Array(keys.prefix(20_000))
  // What serve's lookups cost: `facts(for:)` reads on the caller's thread unless the file is
  // locked; the layered source adds each layer's timeout and task.
  print(
    report(
      "through facts(for:)", try await timeEach(sample) { _ = try await source.facts(for: $0) },
      runs: 1))
  let layered = LayeredFactSource(layers: [.init(source)])
  print(
    report(
      "through LayeredFactSource (timeout, tasks)",
      try await timeEach(sample) { _ = try await layered.facts(for: $0) }, runs: 1))

  let floor = try FactsBenchmarkShell.measure(database: database, queries: queries, keys: keys)
  print(
    String(
      format:
        "sqlite3 shell floor: %.2f µs per request (same three queries, %d requests, one shell process)",
      floor, keys.count))
  print(
    String(format: "target: under 20 µs per request: %@", adapter.median < 20 ? "met" : "NOT met"))
}

/// Median and mean latency of one async pass over `keys`.
private func timeEach(_ keys: [RequestKeys], _ body: (RequestKeys) async throws -> Void)
  async throws -> (median: Double, mean: Double)
{
  var timings: [Double] = []
  timings.reserveCapacity(keys.count)
  for key in keys {
    let begin = ContinuousClock.now
    try await body(key)
    timings.append(microseconds(ContinuousClock.now - begin))
  }
  return (median(timings), timings.reduce(0, +) / Double(timings.count))
}

/// Median per-request latency and mean per request, each the median over `runs` after a warm-up pass.
private func measure(_ keys: [RequestKeys], runs: Int, _ body: (RequestKeys) throws -> Void) throws
  -> (median: Double, mean: Double)
{
  var medians: [Double] = []
  var means: [Double] = []
  for key in keys { try body(key) }  // warm up: page the database in, grow the connection's caches
  for _ in 0..<runs {
    var latencies: [Double] = []
    latencies.reserveCapacity(keys.count)
    let start = ContinuousClock.now
    for key in keys {
      let begin = ContinuousClock.now
      try body(key)
      latencies.append(microseconds(ContinuousClock.now - begin))
    }
    means.append(microseconds(ContinuousClock.now - start) / Double(keys.count))
    medians.append(median(latencies))
  }
  return (median(medians), median(means))
}

private func report(_ label: String, _ figures: (median: Double, mean: Double), runs: Int) -> String
{
  String(
    format: "%@: median %.2f µs per request, mean %.2f µs (median of %d runs)", label,
    figures.median, figures.mean, runs)
}

private func microseconds(_ duration: Duration) -> Double {
  Double(duration.components.seconds) * 1e6 + Double(duration.components.attoseconds) / 1e12
}

private func median(_ values: [Double]) -> Double {
  let sorted = values.sorted()
  return sorted[sorted.count / 2]
}
