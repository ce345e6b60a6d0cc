import Foundation
import ReckonEngine
import ReckonFacts
import ReckonTools

/// `reckon-bench json-facts --dry-run`: `reckon dry-run --facts FILE.json` timed from the start,
/// loading the facts file included, over requests generated for the file's transaction ids.
enum JSONFactsDryRunBenchmark {
  /// Dry-runs `requests` generated requests against the facts at `factsPath`, `runs` times, with
  /// policies/targeted.policy, and prints the median wall and CPU time.
  static func run(factsPath: String, requests: Int, runs: Int) async throws {
    let requestsPath = ScratchFiles.file("bench-json-facts-requests", extension: "jsonl")
    try GeneratedDataWriter.writeRequests(
      PastRequestGenerator(count: requests, seed: 7), to: requestsPath)
    let policyPath = FactsBenchmarkDatabase.repository.appendingPathComponent(
      "policies/targeted.policy"
    ).path
    let policy = try PolicyFiles.load(policyPath, schema: .standard).policy!
    var walls: [Double] = []
    var cpus: [Double] = []
    var loads: [Double] = []
    var decided = 0
    var withoutFacts = 0
    for _ in 0..<runs {
      // Timed as `reckon dry-run --facts` works: read the facts, index the requests, decide,
      // summarise.
      let start = DispatchTime.now().uptimeNanoseconds
      let cpuStart = Stopwatch.processCPUSeconds()
      let source = try JSONFileFactSource(name: "facts.json", path: factsPath, schema: .standard)
      loads.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
      let lines = try RequestLines(path: requestsPath)
      let run = BulkDryRun(
        policy: policy, against: nil, schema: .standard, layers: [.lookup(source)])
      let summary = DryRunSummary(try await run.run(lines))
      walls.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
      cpus.append(Stopwatch.processCPUSeconds() - cpuStart)
      decided = summary.decided
      withoutFacts = summary.withoutFacts
    }
    let wall = median(walls)
    print(
      String(
        format: "dry-run of %d requests with the JSON facts file (its loading included): "
          + "%.2f s wall, %.0f requests/s (median of %d runs; of it loading %.2f s), "
          + "CPU %.2f s (target: <= 1.5 s for 100,000 requests on 2 cores)",
        decided, wall, Double(decided) / wall, runs, median(loads), median(cpus)))
    if withoutFacts > 0 { print("warning: \(withoutFacts) requests found no facts in the file") }
  }

  private static func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }
}
