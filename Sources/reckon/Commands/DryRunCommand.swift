import Foundation
import ReckonEngine
import ReckonFacts
import ReckonPolicy
import ReckonTools

/// `reckon dry-run`: what a policy would have done to past requests, and with `--against`, what
/// another would do differently.
enum DryRunCommand: Command {
  static let name = "dry-run"
  static let summary = "Decide past requests with a policy (and compare with another)"
  static let options: [CommandOption] = [
    CommandOption(
      "requests", value: "FILE",
      help: [
        "past notifications, one JSON object a line: decoded payloads (the transaction",
        "decoded in place of data.signedTransactionInfo) or webhook bodies",
        "{\"signedPayload\": ...}, verified against the roots in --config; and Google",
        "Play's: Pub/Sub push bodies or decoded developer notifications, which are NOT",
        "verified (the push's OIDC token is a header the file does not keep)",
      ]),
    CommandOption(
      "state", value: "FILE|URL",
      help: "the state database: an SQLite file, or a postgres:// address"),
    CommandOption(
      "since", value: "DATE",
      help: [
        "with --state only: requests received at or after DATE (2026-11-01 is UTC",
        "midnight, or an ISO 8601 time with its zone: 2026-11-01T09:30:00.250Z)",
      ]),
    CommandOption(
      "until", value: "DATE",
      help: [
        "with --state only: requests received before DATE (exclusive); it must",
        "come after --since. With --requests both are refused: the file is the", "selection",
      ]),
    CommandOption(
      "facts", value: "WHICH",
      help: [
        "recorded (default with --state): the facts each decision was made on;",
        "current: gathered now from the sources in --config;",
        "FILE.json: a facts file shaped like the JSON fact source's",
      ]),
    CommandOption(
      "config", value: "FILE",
      help: [
        "reckon.json: fact sources (a SQLite source with \"bulkQuery\" is read in one",
        "ordered scan), trusted roots, custom facts",
      ]),
    CommandOption(
      "against", value: "FILE",
      help: "a second policy: which answers would change, from what to what, and why"),
    CommandOption(
      "format", value: "FORMAT", help: "text (summary, default), csv or json (one row per request)"),
    CommandOption(
      "html", value: "FILE",
      help: [
        "also write a self-contained HTML report; refused before the run when FILE",
        "is one of the inputs above, names no file, exists and is not an HTML",
        "report Reckon wrote, or its folder is missing or cannot be written",
      ]),
    CommandOption(
      "skip-bad-lines",
      help: [
        "with --requests: leave out lines that cannot be read (not JSON, not a",
        "notification, a signedPayload that does not verify), count them and decide",
        "the rest; the summary shows how many and the first ones. Without it the",
        "first such line stops the run (exit 1), naming file:line",
      ]),
    CommandOption(
      "store", value: "STORE",
      help: [
        "appStore or googlePlay: decide only that store's requests, counting the other's",
        "as left out (default: both, the policy checked in the words of each)",
      ]),
    CommandOption(
      "quiet", help: "no progress bar (it shows only when standard error is a terminal)"),
    CommandOption("policy", value: "FILE"),
  ]
  static let help = """
    Usage: reckon dry-run --policy FILE --requests FILE.jsonl (--config reckon.json | --facts FILE.json) [options]
           reckon dry-run --policy FILE --state FILE|URL [--since DATE] [--until DATE] [options]

    \(CommandOption.table(options))

    Each request is decided exactly as it would have been when it arrived: its own receive time
    is `now`. As `reckon serve` does, a second copy of a notification (the same
    notificationUUID) and a repeat of a request still open for its transaction are counted and
    left out; so are, with --requests and a --config that lists apps, requests for an app or
    environment it does not list, which serve refuses. Requests whose transaction is in no fact
    source are decided on the notification alone, as serve would, and counted apart ("no facts
    found for N requests"), so missing data is not taken for a customer's answer. A run that
    decides nothing (an empty file, only other notifications, or a --since/--until window with
    none of the database's requests, whose count and first and last times it gives) exits 0
    with a warning on standard error saying why.
    Ctrl-C stops the run and prints the summary of what was decided so far (exit 130); with
    --format csv or json, the rows decided so far and, on standard error, "stopped after N of M
    requests: the CSV output is partial". A large requests file is decided in parts side by side
    (one per core, each a stretch of transactions), so what a stopped run decided is the start of
    each part, not the file's first N lines; and as the unread lines may hold other
    notifications, it gives M as "at most" and says how many lines it read.
    RECKON_DRY_RUN_PACE=N in the environment slows the run to N requests a second (for demos).
    Google Play reviews (from --state, or push lines in --requests) are decided by the same
    --policy checked in Google Play's words, each as of its event time (a file's) or receive
    time (the state's); a source holding a store's requests the policy does not check for is
    refused, naming the store (--store decides one store's requests only, and counts the
    other's from what its lines claim, none verified). A requests file's
    reviews follow its App Store rows, in file order; a state's rows keep the database's order.
    They show Google's answers (APPROVE, DECLINE, NEUTRAL); CSV and JSON rows then say each
    row's store.
    """

  static let exitStatuses: [(code: Int32, meaning: String)] = [
    (0, "done"),
    (1, "it failed, and the message says why"),
    (130, "stopped by Ctrl-C, after printing the summary so far"),
  ]

  static func run(_ arguments: inout Arguments, _ console: Console) async throws -> Int32 {
    let options = try DryRunOptions(&arguments) { console.error("reckon: \($0)") }
    let html = try options.htmlPath.map { path throws(HTMLReportFile.Refusal) in
      try HTMLReportFile(path, inputs: options.inputFiles)
    }
    let schema = try options.schema()
    guard let policies = try DryRunPolicies.load(options, schema: schema, console: console) else {
      return 1
    }
    let policy = policies.primary.policy
    let against = policies.primary.against
    warnAboutMissingHistory(policy, against, schema, options, console)
    let control = DryRunControl(
      pace: ProcessInfo.processInfo.environment["RECKON_DRY_RUN_PACE"].flatMap(Double.init))
    let interrupt = InterruptHandler { control.stop() }
    let progress = options.quiet ? nil : ProgressBar(control: control)
    defer {
      progress?.finish()
      interrupt.cancel()
    }
    let result: DryRunResult
    do {
      result = try await options.run(
        policies, schema: schema, control: control, console: console)
    } catch let error as DryRunError where error.isUnreadableLine {
      throw UnreadableLineError(error: error)
    }
    progress?.finish()
    let summary = DryRunSummary(result)
    try write(result, summary, options, console)
    if options.format != .text, let note = DryRunText.unreadableNote(result) {
      // The text summary lists them; rows on standard output must stay machine-readable.
      console.error(note)
    }
    if result.stopped, options.format != .text {
      // The text summary says it stopped; a cut CSV or JSON stream looks complete on its own.
      console.error(
        "stopped after \(DryRunText.stoppedAfter(result)): the "
          + "\(options.format.rawValue.uppercased()) output is partial")
    }
    if let warning = try options.nothingDecided(result) { console.error(warning) }
    for (source, reason) in result.uncheckedBulkQueries.sorted(by: { $0.key < $1.key }) {
      console.error(
        "warning: \(source)'s bulkQuery was not checked against its per-request queries, as a "
          + "lookup failed (reckon serve would fail the same way): \(reason)")
    }
    try html?.write(HTMLReport.dryRun(result, summary))
    return result.stopped ? 130 : 0
  }

  /// `history.*` facts come from Reckon's state database; a policy reading them over requests
  /// with no database to read them from would silently fall to rules that do not need them.
  private static func warnAboutMissingHistory(
    _ policy: CompiledPolicy, _ against: CompiledPolicy?, _ schema: FactSchema,
    _ options: DryRunOptions, _ console: Console
  ) {
    let recorded = options.statePath != nil && options.facts != "current"
    guard !recorded, options.historySource() == nil else { return }
    let read = FactGathering.factsRead(by: policy).union(
      against.map(FactGathering.factsRead(by:)) ?? [])
    let history = read.filter { schema.origin(of: $0) == .records }.sorted()
    guard !history.isEmpty else { return }
    console.error(
      "warning: the policy reads \(history.joined(separator: ", ")), which comes from Reckon's "
        + "state database; with none to read (--config naming an existing state.path, or --state "
        + "with --facts current) it is missing for every request")
  }

  private static func write(
    _ result: DryRunResult, _ summary: DryRunSummary, _ options: DryRunOptions, _ console: Console
  ) throws {
    let output = BufferedOutput()
    switch options.format {
    case .csv: DryRunRows.csv(result) { output.write($0) }
    case .json: DryRunRows.json(result, summary) { output.write($0) }
    case .text:
      let text = DryRunText.render(result, summary)
      // Bold only on a terminal: a redirected summary never gets escapes.
      output.write(console.withBoldHeadings(text) + "\n")
    }
    output.flush()
  }
}

/// A line of the requests file that stops the run, with how to go on past such lines.
struct UnreadableLineError: Error, CustomStringConvertible {
  let error: DryRunError

  var description: String {
    "\(error.description); to leave out lines that cannot be read and decide the rest, add "
      + "--skip-bad-lines"
  }
}

/// Writes to standard output in large pieces.
final class BufferedOutput {
  private var buffer = Data()

  func write(_ text: String) {
    buffer.append(contentsOf: text.utf8)
    if buffer.count > 1 << 20 { flush() }
  }

  func flush() {
    FileHandle.standardOutput.write(buffer)
    buffer.removeAll(keepingCapacity: true)
  }
}
