import Foundation
import ReckonEngine
import ReckonStateSQLite
import ReckonSupport
import ReckonTools

/// `reckon generate`: realistic past requests with the app's facts, for dry-runs and demos.
enum GenerateCommand: Command {
  static let name = "generate"
  static let summary = "Generate realistic past requests with facts (and a state database)"
  static let options: [CommandOption] = [
    CommandOption("out", value: "FOLDER"),
    CommandOption("count", value: "N"),
    CommandOption("seed", value: "N"),
    CommandOption("days", value: "N"),
    CommandOption("until", value: "DATE"),
    CommandOption("policy", value: "FILE"),
    CommandOption("state", value: "yes|no"),
    CommandOption("force"),
    CommandOption("quiet", help: "say nothing on standard error while generating"),
    CommandOption(
      "format", value: "FORMAT", help: "text (default) or json: what was written, as one object"),
  ]
  static let help = """
    Usage: reckon generate --out FOLDER [--count N] [--seed N] [--days N] [--until DATE]
                           [--policy FILE] [--state yes|no] [--force] [--quiet]
                           [--format text|json]

    Writes FOLDER/requests.jsonl (CONSUMPTION_REQUESTs in Apple's decoded shape), FOLDER/facts.sqlite
    (the example app's database, examples/facts.sql's schema) and FOLDER/reckon.json (the SQLite
    source with the example queries and their bulkQuery). The same seed and --until give the
    same files.
    --count N      how many requests, from 1 to 10000000 (default 10000)
    --days N       spread over this many days, at least 1 (default 90)
    --until DATE   the history ends at this time: 2026-11-01 (midnight UTC) or an ISO 8601 time
                   with its zone (default: midnight UTC today, so the history is past)
    --policy FILE  the app's policy in reckon.json (default policies/targeted.policy, found when
                   generate runs in Reckon's folder); with --state yes, the policy the history is
                   decided by. It must check.
    --state yes    also write FOLDER/reckon-state.sqlite: each request decided by --policy on the
                   generated facts, each answer (respond or hold) in the outbox as sent as decided,
                   with Apple's outcomes (REFUND, REFUND_DECLINED, REFUND_REVERSED)
    --state no     no state database (the default)
    --force        replace files of these names already in FOLDER (and the databases' -wal and
                   -shm files); without it, generate refuses and names them
    --quiet        say nothing on standard error while generating
    --format json  what was written, as one object on standard output (text is the default)

    Every option, the policy and FOLDER (it must be a folder, or a path one can be created at,
    that can be written to) are checked before anything is written. The files are made in a
    hidden folder inside FOLDER (.reckon-partial-PID-…) and moved into place once all are
    complete: stopped (Ctrl-C) or failed part way, generate leaves FOLDER as it was. One left by
    a run that was killed outright is removed by the next run into FOLDER. Without --force, a
    file that appears in FOLDER while generating (another run's) is not replaced either.
    """

  static let exitStatuses: [(code: Int32, meaning: String)] = [
    (0, "done"),
    (1, "it failed, and the message says why"),
    (130, "stopped by Ctrl-C"),
  ]

  static func run(_ arguments: inout Arguments, _ console: Console) async throws -> Int32 {
    let folder = try arguments.required("out")
    let count =
      try number(arguments.option("count"), "count", atLeast: 1, atMost: mostRequests) ?? 10_000
    let seed = try number(arguments.option("seed"), "seed") ?? 1
    let days = try number(arguments.option("days"), "days", atLeast: 1) ?? 90
    let until = try arguments.option("until").map { text throws(UsageError) in
      do { return try DryRunSetup.date(text) } catch { throw UsageError("--until: \(error)") }
    }
    let policy = arguments.option("policy")
    let state = try withState(arguments.option("state"))
    let force = arguments.flag("force")
    let quiet = arguments.flag("quiet")
    let format = try OutputFormat.option(&arguments) ?? .text
    try arguments.rejectUnknown()
    // Each stage takes seconds at a realistic size: say what is being done.
    let stage = { (text: String) in if !quiet { console.error("reckon generate: \(text)") } }
    let end = until ?? Self.startOfToday()
    try checkSpan(end: end, days: days, until: arguments.option("until"))
    try OutputFolder.check(folder)
    try checkPolicy(policy)
    if !force { try GeneratedFiles.checkNothingReplaced(in: folder, state: state) }
    let generator = PastRequestGenerator(
      count: count, seed: UInt64(seed), start: end.addingTimeInterval(-Double(days) * 86_400),
      days: days)
    let absolute = URL(fileURLWithPath: policy ?? defaultPolicy).standardizedFileURL.path
    let staging: StagingFolder
    do { staging = try StagingFolder(in: folder) } catch {
      throw OutputFolder.failure(folder, error)
    }
    defer { staging.remove() }
    let signals = StopSignals(onStop: {
      guard staging.abandon() else { return }
      console.error("reckon generate: stopped; nothing was written to \(folder)")
      exit(130)
    })
    defer { withExtendedLifetime(signals) {} }
    stage("writing \(DryRunText.n(count)) requests and their facts…")
    let files: GeneratedDataWriter.Files
    do {
      files = try GeneratedDataWriter.write(generator, to: staging.path, policyPath: absolute)
    } catch {
      throw OutputFolder.failure(folder, error)
    }
    var written: Int?
    if state {
      stage("deciding them into a state database, with outcomes…")
      written = try await GeneratedHistory.write(
        generator, configuration: files.configuration,
        to: staging.path + "/reckon-state.sqlite", state: SQLiteStateOpener())
    }
    do { try staging.moveIntoPlace(GeneratedFiles.names(state: state), replace: force) } catch {
      throw OutputFolder.failure(folder, error)
    }
    if format == .json {
      let report = Written(
        requests: count, decided: written,
        files: GeneratedFiles.names(state: state).map { "\(folder)/\($0)" })
      let encoder = JSONEncoder()
      encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
      console.out(String(decoding: try encoder.encode(report), as: UTF8.self))
      return 0
    }
    console.out(
      "wrote \(DryRunText.n(count)) requests to \(folder)/requests.jsonl, facts to \(folder)/facts.sqlite, \(folder)/reckon.json"
    )
    if let written {
      console.out(
        "wrote \(DryRunText.n(written)) decided requests with outcomes to \(folder)/reckon-state.sqlite"
      )
    }
    return 0
  }

  /// What `--format json` says was written.
  struct Written: Encodable {
    let requests: Int
    let decided: Int?
    let files: [String]
  }

  /// The earliest start of a history: its purchases and customers reach up to a year before
  /// it, and a time before March 1973 in milliseconds is refused as seconds given by mistake.
  static let earliestStart = Date(timeIntervalSince1970: 157_766_400)  // 1975-01-01

  /// Refuses a history that would start before `earliestStart` or end after year 9998.
  private static func checkSpan(end: Date, days: Int, until: String?) throws(UsageError) {
    let latest = Date(timeIntervalSince1970: 253_370_764_800)  // 9999-01-01
    guard end <= latest else {
      throw UsageError("--until \(until ?? ""): the history must end before 9999")
    }
    guard end.timeIntervalSince(earliestStart) >= Double(days) * 86_400 else {
      throw UsageError(
        "--days \(days) before \(until.map { "--until \($0)" } ?? "today") starts the history before 1975; give fewer days or a later --until"
      )
    }
  }

  /// Midnight UTC at the start of the current day.
  private static func startOfToday() -> Date {
    let now = Date().timeIntervalSince1970
    return Date(timeIntervalSince1970: now - now.truncatingRemainder(dividingBy: 86_400))
  }

  /// The policy when `--policy` is not given, found from the folder generate runs in.
  static let defaultPolicy = "policies/targeted.policy"

  /// Checks `--policy`, or that the default is where it is looked for: outside Reckon's
  /// repository there is none, which is a missing option rather than a missing file.
  private static func checkPolicy(_ path: String?) throws {
    guard let path else {
      guard FileManager.default.fileExists(atPath: defaultPolicy) else {
        throw UsageError(
          "no --policy given, and the default \(defaultPolicy) is not in "
            + "\(FileManager.default.currentDirectoryPath) (it is found when generate runs in "
            + "Reckon's folder); pass --policy FILE, the policy the generated reckon.json names")
      }
      return try GeneratedFiles.checkPolicy(defaultPolicy)
    }
    try GeneratedFiles.checkPolicy(path)
  }

  /// `--state`: yes or no, nothing else, so a typo never silently means no.
  private static func withState(_ text: String?) throws(UsageError) -> Bool {
    switch text {
    case nil, "no": return false
    case "yes": return true
    case let other?: throw UsageError("--state must be yes or no, not '\(other)'")
    }
  }

  /// The most requests one run generates: far more than a dry-run needs, so a mistyped count
  /// fails at once instead of filling memory and disk for hours.
  static let mostRequests = 10_000_000

  private static func number(
    _ text: String?, _ name: String, atLeast minimum: Int = 0, atMost maximum: Int = .max
  ) throws -> Int? {
    guard let text else { return nil }
    guard let value = Int(text), value >= 0 else {
      throw UsageError("--\(name) must be a whole number")
    }
    // 0 requests, or 0 days to spread them over, would write files with nothing in them.
    guard value >= minimum else {
      throw UsageError("--\(name) must be at least \(minimum), not \(text)")
    }
    guard value <= maximum else {
      throw UsageError("--\(name) must be at most \(maximum), not \(text)")
    }
    return value
  }
}
