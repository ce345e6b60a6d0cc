import Foundation
import ReckonPolicy

/// Benchmarks, one per run: `reckon-bench [BENCHMARK] [OPTIONS]`; `--help` lists them.
/// Figures are printed, never asserted.
let arguments = Array(CommandLine.arguments.dropFirst())
if arguments.contains("--help") || arguments.contains("-h") || arguments.first == "help" {
  print(Benchmark.usage, terminator: "")
  exit(0)
}
let named = arguments.first.map { !$0.hasPrefix("-") } ?? false
let name = named ? arguments[0] : Benchmark.all[0].name
let options: BenchmarkOptions
let benchmark: Benchmark
do {
  guard let found = Benchmark.all.first(where: { $0.name == name }) else {
    throw BenchmarkUsageError.unknownBenchmark(
      name, closest: Suggestions.closest(to: name, among: Benchmark.all.map(\.name)))
  }
  benchmark = found
  options = try BenchmarkOptions(Array(arguments.dropFirst(named ? 1 : 0)), for: benchmark)
} catch {
  FileHandle.standardError.write(
    Data(
      "reckon-bench: \(error)\nreckon-bench --help lists the benchmarks and their options\n".utf8))
  exit(2)
}
do {
  try await benchmark.run(options)
  ScratchFiles.removeAll()
} catch {
  ScratchFiles.removeAll()
  FileHandle.standardError.write(Data("reckon-bench \(name): \(BenchmarkFailure(error))\n".utf8))
  exit(1)
}
