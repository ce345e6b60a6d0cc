import Foundation
import ReckonTestSupport
import Testing

/// `reckon-bench` refuses arguments it does not take before it measures anything, since a
/// misspelt option would otherwise run the default (a million-request dry-run, say); `--help`
/// lists every benchmark and its options.
struct BenchmarkUsageTests {
  struct Case: Sendable, CustomTestStringConvertible {
    let arguments: [String]
    let message: String
    var testDescription: String { arguments.joined(separator: " ") }
  }

  static let refused: [Case] = [
    Case(
      arguments: ["dryrun", "--rnus", "3"],
      message: "'dryrun' takes no option --rnus (did you mean --runs?)"),
    Case(arguments: ["drytun"], message: "no benchmark named 'drytun' (did you mean 'dryrun'?)"),
    Case(
      arguments: ["dryrun", "3"], message: "'dryrun' takes options only (--name value), not '3'"),
    Case(
      arguments: ["dryrun", "--runs", "three"],
      message: "--runs needs a positive number, not 'three'"),
    Case(arguments: ["dryrun", "--runs", "0"], message: "--runs needs a positive number, not '0'"),
    Case(arguments: ["decision", "--policy"], message: "--policy needs a value: --policy PATH"),
    Case(
      arguments: ["sender", "--durability", "fast"],
      message: "--durability is one of normal, full, both, not 'fast'"),
    Case(arguments: ["--threads", "2"], message: "'decision' takes no option --threads"),
    // 0 skips a part of the webhook benchmark: taken, so the refusal is of the option after it.
    Case(
      arguments: ["webhook", "--paced", "0", "--direct", "0", "--rnus", "2"],
      message: "'webhook' takes no option --rnus"),
    Case(
      arguments: ["webhook", "--paced", "-1"],
      message: "--paced needs a whole number, 0 or more, not '-1'"),
  ]

  @Test(arguments: refused)
  func refusesArgumentsABenchmarkDoesNotTake(_ refused: Case) async throws {
    let run = try await Self.run(refused.arguments)
    #expect(run.status == 2)
    #expect(run.output.isEmpty)
    #expect(run.error.hasPrefix("reckon-bench: \(refused.message)"))
    #expect(run.error.contains("reckon-bench --help lists the benchmarks and their options"))
  }

  @Test func helpListsEveryBenchmarkWithItsOptions() async throws {
    let run = try await Self.run(["dryrun", "--help"])
    #expect(run.status == 0)
    for name in [
      "decision (default)", "facts", "sender", "webhook", "dryrun", "soak", "instances",
      "state-size", "health", "json-facts", "peers",
    ] {
      #expect(run.output.contains("\n  \(name):"))
    }
    #expect(run.output.contains("--no-floor"))
    #expect(run.output.contains("--durability normal|full|both"))
  }

  @Test func dryRunWithoutTheFloorSaysItWasNotMeasured() async throws {
    let run = try await Self.run(["dryrun", "--count", "300", "--runs", "1", "--no-floor"])
    #expect(run.status == 0)
    #expect(run.output.contains("300 decided"))
    #expect(
      run.output.contains(
        "floor: not measured (--no-floor); under 5 s: not judged (the target is for 1,000,000 requests)"
      ))
    #expect(!run.output.contains("nan"))
    #expect(!run.output.contains("ratio to the floor"))
  }

  @Test func stateSizePrintsBytesPerRequestAndEachTablesShare() async throws {
    let run = try await Self.run(["state-size", "--count", "40"])
    #expect(run.status == 0, "\(run.error)")
    #expect(run.output.contains("40 requests (40 decided), notifications signed as Apple does"))
    #expect(run.output.contains("KB per request (target <= 5 KB)"))
    for table in ["requests", "decisions", "outbox"] {
      #expect(run.output.contains("\n  \(table) "), "\(run.output)")
    }
  }

  /// Outside the repository the default policy is not there: one sentence saying where to run
  /// from, rather than a stack trace.
  @Test func aMissingFileIsOneSentenceNamingWhereToRun() async throws {
    let folder = TestScratch.folder.appendingPathComponent("bench-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let run = try await Self.run(["decision", "--runs", "1", "--count", "10"], in: folder)
    #expect(run.status == 1)
    #expect(run.output.isEmpty, "\(run.output)")
    #expect(
      run.error.hasPrefix("reckon-bench decision: no such file: policies/targeted.policy (in "),
      "\(run.error)")
    #expect(run.error.contains("run reckon-bench from its root folder"))
    #expect(!run.error.contains("Fatal error"))
  }

  struct Run {
    let status: Int32
    let output: String
    let error: String
  }

  /// Runs the built `reckon-bench`, killed after 30 s: one that measured instead of refusing
  /// would otherwise run for minutes.
  static func run(_ arguments: [String], in folder: URL = ReckonBinary.packageRoot) async throws
    -> Run
  {
    let (status, output, error) = try await ProcessOutput.run(
      try ReckonBinary.location().deletingLastPathComponent().appendingPathComponent(
        "reckon-bench"), arguments, in: folder, limit: 30)
    return Run(status: status, output: output, error: error)
  }
}
