/// One of `reckon-bench`'s benchmarks: what it measures and the options it takes.
struct Benchmark: Sendable {
  /// An option a benchmark takes.
  struct Option: Sendable {
    /// `integer` is above 0; `count` may be 0, which skips that part of the benchmark.
    enum Kind: Sendable, Equatable {
      case integer, count, number, path
      case choice([String])
      case flag
    }

    let name: String
    let kind: Kind
    let help: String

    /// What the usage shows after the option's name.
    var placeholder: String {
      switch kind {
      case .integer, .count: "N"
      case .number: "X"
      case .path: "PATH"
      case .choice(let choices): choices.joined(separator: "|")
      case .flag: ""
      }
    }
  }

  let name: String
  let summary: String
  let options: [Option]
  let run: @Sendable (BenchmarkOptions) async throws -> Void

  /// Every benchmark, the default first.
  static let all: [Benchmark] = [
    Benchmark(
      name: "decision",
      summary: "ns per decision (trace off and on) and the time to load a policy",
      options: [
        Option(name: "policy", kind: .path, help: "the policy (policies/targeted.policy)"),
        Option(name: "count", kind: .integer, help: "decisions per run (100000)"),
        Option(name: "sets", kind: .integer, help: "distinct fact sets, cycled (1000)"),
        Option(name: "runs", kind: .integer, help: "runs, of which the median is shown (7)"),
        Option(
          name: "catalogue", kind: .integer,
          help: "decide with a generated policy of this many rules, one per product id"),
        Option(
          name: "no-catalogues", kind: .flag,
          help: "leave out the load times of the 1,000- and 10,000-rule catalogues"),
        Option(
          name: "only", kind: .choice(["evaluation", "trace", "decision"]),
          help: "time one thing alone, for a profiler: evaluation, trace (traced) or decision"),
      ], run: runDecisionBenchmark),
    Benchmark(
      name: "peers",
      summary: "Reckon beside GoRules ZEN (pip install zen-engine) on the same rules and facts",
      options: [
        Option(name: "count", kind: .integer, help: "fact sets decided per run (100000)"),
        Option(name: "runs", kind: .integer, help: "runs, of which the median is shown (5)"),
        Option(name: "python", kind: .path, help: "the Python with zen-engine (python3)"),
      ], run: runPeersBenchmark),
    Benchmark(
      name: "facts",
      summary: "µs per request through the SQLite adapter, next to the sqlite3 shell",
      options: [
        Option(name: "requests", kind: .integer, help: "requests per run (100000)"),
        Option(name: "runs", kind: .integer, help: "runs (5)"),
        Option(name: "rebuild", kind: .flag, help: "build the 1,000,000-row database again"),
        Option(name: "adapter-only", kind: .flag, help: "leave out the shell's figures"),
      ], run: runFactsBenchmark),
    Benchmark(
      name: "sender",
      summary: "the durable enqueue rate and the sender's rate against the local stand-in",
      options: [
        Option(name: "entries", kind: .integer, help: "entries enqueued (20000)"),
        Option(name: "send", kind: .integer, help: "replies sent (10000)"),
        Option(name: "rate", kind: .integer, help: "the configured limit per second (1000)"),
        Option(name: "concurrency", kind: .integer, help: "sends at once (64)"),
        Option(name: "connections", kind: .integer, help: "the stand-in's connections (16)"),
        Option(
          name: "durability", kind: .choice(["normal", "full", "both"]),
          help: "synchronous mode to measure (both)"),
        Option(name: "key", kind: .path, help: "the ES256 signing key (the test fixture)"),
      ], run: runSenderBenchmark),
    Benchmark(
      name: "webhook",
      summary: "the webhook on loopback: sustained rate, then p50/p99 at a paced rate",
      options: [
        Option(name: "count", kind: .integer, help: "requests sent back to back, at most (6000)"),
        Option(name: "seconds", kind: .integer, help: "seconds per phase, at most (10)"),
        Option(name: "connections", kind: .integer, help: "keep-alive connections (16)"),
        Option(name: "rate", kind: .integer, help: "paced requests per second (200)"),
        Option(name: "paced", kind: .count, help: "paced requests (2000; 0 skips them)"),
        Option(
          name: "direct", kind: .count,
          help: "requests through the pipeline alone (200; 0 skips them)"),
      ], run: runWebhookBenchmark),
    Benchmark(
      name: "dryrun",
      summary: "a dry-run of 1,000,000 past requests next to the sqlite3 shell's floor",
      options: [
        Option(name: "count", kind: .integer, help: "requests generated (1000000)"),
        Option(name: "runs", kind: .integer, help: "runs (3)"),
        Option(name: "threads", kind: .integer, help: "threads (one per core)"),
        Option(name: "rebuild", kind: .flag, help: "generate the requests again"),
        Option(name: "against", kind: .flag, help: "compare with prefer-refund.policy"),
        Option(name: "no-floor", kind: .flag, help: "leave out the shell's floor"),
      ], run: runDryRunBenchmark),
    Benchmark(
      name: "soak",
      summary: "the built `reckon serve` fed signed notifications: memory and latency over time",
      options: [
        Option(name: "minutes", kind: .number, help: "how long (10)"),
        Option(name: "rate", kind: .number, help: "notifications per second (100)"),
        Option(name: "sample", kind: .number, help: "seconds per printed row (10)"),
        Option(name: "reckon", kind: .path, help: "the reckon binary (the one beside this)"),
      ], run: runSoakBenchmark),
    Benchmark(
      name: "instances",
      summary:
        "ingest on SQLite and on 1, 2, 3 instances of one PostgreSQL; their shared send rate",
      options: [
        Option(name: "count", kind: .integer, help: "requests sent back to back, at most (3000)"),
        Option(name: "seconds", kind: .integer, help: "seconds per phase, at most (5)"),
        Option(name: "connections", kind: .integer, help: "keep-alive connections in all (12)"),
        Option(name: "rate", kind: .integer, help: "paced requests per second (200)"),
        Option(name: "paced", kind: .count, help: "paced requests (600; 0 skips them)"),
        Option(name: "send", kind: .count, help: "replies 3 senders send at 50/s (500; 0 skips)"),
      ], run: runInstancesBenchmark),
    Benchmark(
      name: "state-size",
      summary: "bytes of SQLite state per request with notifications signed as Apple's are",
      options: [
        Option(name: "count", kind: .integer, help: "requests recorded and decided (2000)"),
        Option(name: "plain", kind: .flag, help: "store generated lines, not signed notifications"),
      ], run: runStateSizeBenchmark),
    Benchmark(
      name: "report",
      summary: "report outcomes --by week and report rules over a large SQLite state",
      options: [
        Option(name: "requests", kind: .integer, help: "decided requests in the state (1000000)"),
        Option(name: "keep", kind: .path, help: "leave the state at PATH (a new file)"),
      ], run: runReportBenchmark),
    Benchmark(
      name: "health",
      summary: "/healthz and /metrics polled on a large state, and the webhook's p50/p99 beside",
      options: [
        Option(name: "requests", kind: .integer, help: "past requests in the state (100000)"),
        Option(name: "pollers", kind: .integer, help: "clients polling at once (8)"),
        Option(name: "rate", kind: .integer, help: "paced notifications per second (200)"),
        Option(name: "paced", kind: .integer, help: "paced notifications per phase (2000)"),
        Option(
          name: "state", kind: .path,
          help: "a state file to use, filled first when missing (a temporary one)"),
      ], run: runHealthBenchmark),
    Benchmark(
      name: "json-facts",
      summary: "the time to load a JSON facts file, its rate in MB/s, and a dry-run with it",
      options: [
        Option(name: "entries", kind: .integer, help: "entries by transaction id (100000)"),
        Option(name: "runs", kind: .integer, help: "loads, of which the median is shown (5)"),
        Option(
          name: "dry-run", kind: .flag,
          help: "also dry-run as many requests against the file, its loading included"),
      ], run: runJSONFactsBenchmark),
  ]

  /// What `reckon-bench --help` prints.
  static var usage: String {
    var text = "usage: reckon-bench [BENCHMARK] [OPTIONS]\n\nFigures are printed, never asserted. "
    text += "Build with -c release first.\n"
    for benchmark in all {
      text += "\n  \(benchmark.name)\(benchmark.name == all[0].name ? " (default)" : "")"
      text += ": \(benchmark.summary)\n"
      for option in benchmark.options {
        let left = "--\(option.name)" + (option.kind == .flag ? "" : " \(option.placeholder)")
        text +=
          "      " + left.padding(toLength: max(32, left.count + 2), withPad: " ", startingAt: 0)
        text += option.help + "\n"
      }
    }
    return text
  }
}
