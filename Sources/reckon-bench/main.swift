import Foundation

/// Benchmarks, one per argument: `decision` (default), `facts`, `sender`, `webhook`, `dryrun`,
/// `soak`.
/// Figures are printed, never asserted.
let arguments = Array(CommandLine.arguments.dropFirst())
let benchmarks: [String: ([String]) async throws -> Void] = [
  "decision": runDecisionBenchmark,
  "facts": runFactsBenchmark,
  "sender": runSenderBenchmark,
  "webhook": runWebhookBenchmark,
  "dryrun": runDryRunBenchmark,
  "soak": runSoakBenchmark,
]
let name = arguments.first ?? "decision"
guard let benchmark = benchmarks[name] else {
  FileHandle.standardError.write(
    Data("usage: reckon-bench [\(benchmarks.keys.sorted().joined(separator: "|"))]\n".utf8))
  exit(2)
}
do {
  try await benchmark(Array(arguments.dropFirst()))
  ScratchFiles.removeAll()
} catch {
  ScratchFiles.removeAll()
  throw error
}
