import Foundation
import ReckonEngine
import ReckonStateSQLite
import ReckonTools

/// `reckon report outcomes`: whether Apple followed our preferences.
enum ReportCommand: Command {
  static let name = "report"
  static let summary = "Report refund outcomes of past decisions (reckon report outcomes)"
  static let options: [CommandOption] = [
    CommandOption(
      "state", value: "FILE|URL",
      help: "the state: an SQLite file, or a postgres:// address"),
    CommandOption("config", value: "reckon.json"),
    CommandOption("since", value: "DATE"),
    CommandOption("until", value: "DATE"),
    CommandOption("format", value: "text|json"),
    CommandOption("html", value: "FILE"),
  ]
  static let help = """
    Usage: reckon report outcomes [--state FILE|URL | --config reckon.json]
                                  [--since DATE] [--until DATE] [--format text|json] [--html FILE]

    The state database is --state, or else the one reckon.json names (state.path or state.url;
    --config, or ./reckon.json), as reckon queue finds it.

    For requests received at or after --since and before --until (exclusive), decided or
    imported from Apple's history (reckon import-history), what
    Apple did afterwards (REFUND with its revocationType, REFUND_DECLINED, REFUND_REVERSED): the
    refund rate by the preference sent, by deciding rule, by the customer's reason and by product
    type. The refund rate (the headline's first rate and "rate") is refunds over decisions whose
    outcome has arrived, a refund Apple reversed later (REFUND_REVERSED) still counted as
    refunded; the net refund rate ("net rate") leaves reversed refunds out. A group with no
    outcome yet has no rate: "—" in text and HTML, null in JSON. "avg prorated" is the
    average share of the price a prorated refund (REFUND_PRORATED) gave back, from Apple's
    revocationPercentage. --since must come before --until.

    "By preference sent" groups by the body Apple received, as `reckon queue set` left it. An
    answer never delivered is counted under "not sent (expired, failed or dropped)", one still in
    the outbox under "not sent yet (held, pending or sending)", a skip or `do not respond`
    under "not sent (skip)", a decision never queued (an Xcode or LocalTesting request, which
    has no server API) under "not sent (never queued)", and a request imported from Apple's
    history and never decided by Reckon under "imported history (not answered by Reckon)",
    there and under "By deciding rule": how Apple decided before Reckon answered. Imported
    requests are left out of the headline totals, which say how Apple followed Reckon's answers,
    and counted on a line of their own.

    When nothing is reported, a warning on standard error says why: the database holds no
    decided or imported request, or none received in the --since/--until window (with how many it holds and
    when they were received).

    --html FILE is refused before anything is read when FILE is the state database, exists and
    is not an HTML report, or its folder is missing or cannot be written.
    """

  static func run(_ arguments: inout Arguments, _ console: Console) async throws -> Int32 {
    guard let which = arguments.positionals.first else {
      throw UsageError("say which report: reckon report outcomes")
    }
    guard which == "outcomes" else {
      throw UsageError("unknown report '\(which)'; the reports are: outcomes")
    }
    let state = try StateFileOption.choice(&arguments)
    let range = try DateRangeOptions(&arguments)
    let format = try OutputFormat.option(&arguments) ?? .text
    let htmlPath = arguments.option("html")
    try arguments.rejectUnknown(positionals: 1)
    let html = try htmlPath.map { path throws(HTMLReportFile.Refusal) in
      try HTMLReportFile(path, inputs: [("--state", state.location)])
    }
    let store = try state.open(access: .readOnly)
    let report = OutcomeReport(try store.decidedOutcomes(since: range.since, until: range.until))
    console.out(format == .json ? report.json() : report.text())
    if report.all.decisions + report.importedHistory.decisions == 0 {
      // Empty tables alone would look like a database with nothing in it.
      let why =
        try range.emptyWindowNote(store, decided: true)
        ?? "\(state.description) holds no decided or imported request"
      console.error("warning: nothing to report: \(why)")
    }
    try html?.write(report.html())
    return 0
  }
}
