import Foundation
import ReckonEngine
import ReckonStateSQLite
import ReckonTools

/// `reckon report outcomes` and `reckon report rules`: whether the stores followed our
/// preferences, over time and rule by rule.
enum ReportCommand: Command {
  static let name = "report"
  static let subcommands = ["outcomes", "rules"]
  static let summary = "Report refund outcomes and money kept, over time and by rule"
  static let options: [CommandOption] = [
    CommandOption(
      "state", value: "FILE|URL",
      help: "the state: an SQLite file, or a postgres:// address"),
    CommandOption("config", value: "reckon.json"),
    CommandOption("since", value: "DATE"),
    CommandOption("until", value: "DATE"),
    CommandOption("by", value: "day|week|month"),
    CommandOption("time-zone", value: "ZONE"),
    CommandOption("policy", value: "FILE"),
    CommandOption("format", value: "text|json|csv"),
    CommandOption("html", value: "FILE"),
  ]
  static let help = """
    Usage: reckon report outcomes [--state FILE|URL | --config reckon.json]
                                  [--since DATE] [--until DATE] [--by day|week|month]
                                  [--time-zone ZONE] [--format text|json|csv] [--html FILE]
           reckon report rules [--state FILE|URL] [--config reckon.json] [--policy FILE]
                               [--since DATE] [--until DATE] [--format text|json|csv]
                               [--html FILE]

    The state database is --state, or else the one reckon.json names (state.path or state.url;
    --config, or ./reckon.json), as reckon queue finds it.

    reckon report outcomes: for requests received at or after --since and before --until
    (exclusive), decided or imported from Apple's history (reckon import-history), what
    Apple did afterwards (REFUND with its revocationType, REFUND_DECLINED, REFUND_REVERSED): the
    refund rate by the preference sent, by deciding rule, by the customer's reason and by product
    type. The refund rate (the headline's first rate and "rate") is refunds over decisions whose
    outcome has arrived, a refund Apple reversed later (REFUND_REVERSED) still counted as
    refunded; the net refund rate ("net rate") leaves reversed refunds out. A group with no
    outcome yet has no rate: "—" in text and HTML, null in JSON. "avg prorated" is the
    average share of the price a prorated refund (REFUND_PRORATED) gave back, from Apple's
    revocationPercentage. --since must come before --until.

    Money, per currency (currencies are never added together): what the customers paid for the
    purchases they asked to have refunded ("at stake"), and what stayed paid ("money kept"):
    the whole price of a refund Apple declined or reversed later, and of a prorated refund the
    share Apple did not give back. JSON gives milliunits, as Apple's price is.

    --by day|week|month adds a line per period from --since (or the first request) to --until
    (or the last request), periods with no request included as zeros; a --since (to --until or
    now) of more than 10000 periods is refused;
    weeks are ISO weeks,
    Monday to Sunday, written 2026-W49. Periods are in UTC, or in --time-zone ZONE (an IANA
    name such as Europe/Berlin), where a bare --since or --until date is that day's midnight. --format json gives each period's groups too; --format csv
    gives a row per period and group, with an at_stake_CUR and kept_CUR column per currency.

    Google Play reviews are counted with their own meaning: a voided purchase is a refund, and
    Google sends no decline, so a review not voided has no outcome yet, maybe for good. They
    are counted apart ("Google Play: N reviews, M voided") and left out of the refund rates,
    and carry no price (Google's notification names none).

    "By preference sent" groups by the body Apple received, as `reckon queue set` left it. An
    answer never delivered is counted under "not sent (expired, failed or dropped)", one still in
    the outbox under "not sent yet (held, pending or sending)", a skip or `do not respond`
    under "not sent (skip)", a decision never queued (an Xcode or LocalTesting request, which
    has no server API) under "not sent (never queued)", and a request imported from Apple's
    history and never decided by Reckon under "imported history (not answered by Reckon)",
    there and under "By deciding rule": how Apple decided before Reckon answered. Imported
    requests are left out of the headline totals, which say how Apple followed Reckon's answers,
    and counted on a line of their own.

    reckon report rules: for each rule of the live policies (--policy FILE, else every policy
    the apps of --config name), how often it decided in the window, its share of the policy's
    decisions, what followed (refund rate, declined, no outcome yet) and the money at stake and
    kept. Rules that never decided are listed with zeros; rules in the state's decisions that
    none of the policies has (renamed or removed) are listed apart.

    When nothing is reported, a warning on standard error says why: the database holds no
    decided or imported request, or none received in the --since/--until window (with how many it holds and
    when they were received).

    --html FILE writes the report as one self-contained page (no scripts, nothing fetched),
    with the dates covered, the deciding policies' names, versions and SHA-256, and with --by
    charts of the decisions per period by outcome, the refund rate and the money kept. It is
    refused before anything is read when FILE is the state database, names no
    file, exists and is not an HTML report Reckon wrote, or its folder is missing
    or cannot be written.
    """

  static func run(_ arguments: inout Arguments, _ console: Console) async throws -> Int32 {
    guard let which = arguments.positionals.first else {
      throw UsageError("say which report: reckon report outcomes, or reckon report rules")
    }
    switch which {
    case "outcomes": return try outcomes(&arguments, console)
    case "rules": return try await RulesReportCommand.run(&arguments, console)
    default: throw UsageError("unknown report '\(which)'; the reports are: outcomes, rules")
    }
  }

  private static func outcomes(_ arguments: inout Arguments, _ console: Console) throws -> Int32 {
    let state = try StateFileOption.choice(&arguments)
    let period = try ReportPeriodOptions.period(&arguments)
    let range = try DateRangeOptions(&arguments, timeZone: period?.timeZone)
    // Checked before anything is read; without --until the window ends by now at the latest.
    if let period, let since = range.since {
      let count = period.roughCount(from: since, to: range.until ?? Date())
      guard count <= ReportPeriod.mostPeriods else {
        throw UsageError(
          "--by \(period.unit.rawValue) from --since to \(range.until == nil ? "now" : "--until") makes about \(count) periods, and a "
            + "report shows at most \(ReportPeriod.mostPeriods): narrow the window"
            + (period.unit == .month ? "" : ", or take a longer --by"))
      }
    }
    let format = try OutputFormat.option(&arguments, allowed: [.text, .json, .csv]) ?? .text
    let htmlPath = arguments.option("html")
    try arguments.rejectUnknown(positionals: 1)
    let html = try htmlPath.map { path throws(HTMLReportFile.Refusal) in
      try HTMLReportFile(path, inputs: [(state.givenBy, state.location)])
    }
    let store = try state.open(access: .readOnly)
    let report = try OutcomeReport(by: period, since: range.since, until: range.until) {
      try store.forEachDecidedOutcome(since: range.since, until: range.until, $0)
    }
    switch format {
    case .json: console.out(report.json())
    case .csv: console.out(report.csv())
    case .text: console.out(report.text())
    }
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
