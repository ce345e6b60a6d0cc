import Foundation
import ReckonEngine
import ReckonState
import ReckonStateSQLite
import ReckonTools

/// `reckon prune`: removes old records from the state database, which otherwise grows by about
/// 4 KB per refund request for as long as the service runs.
enum PruneCommand: Command {
  static let name = "prune"
  static let summary = "Remove old requests, decisions and outcomes from the state database"
  static let options: [CommandOption] = [
    CommandOption(
      "older-than", value: "DAYS",
      help: ["the cutoff is DAYS whole days before now, at least 7", "(and at most 36500)"]),
    CommandOption(
      "before", value: "DATE",
      help: [
        "the cutoff is DATE: 2026-06-01 (midnight UTC) or an ISO 8601 time with",
        "its zone; at least 7 days ago",
      ]),
    CommandOption("dry-run", help: "count what would be removed and change nothing"),
    CommandOption(
      "state", value: "FILE|URL",
      help: "the state: an SQLite file, or a postgres:// address"),
    CommandOption("config", value: "reckon.json"),
    CommandOption("format", value: "text|json"),
  ]
  static let help = """
    Usage: reckon prune (--older-than DAYS | --before DATE) [--dry-run]
                        [--state FILE|URL | --config reckon.json] [--format text|json]

    Removes every notification received before the cutoff from the state database, with all
    that was recorded about it: its decisions (facts and explanation), outbox entries, delivery
    attempts and operator commands, and Apple's outcomes; and outcomes attached to no request
    (imported from Apple's history) reported before the cutoff. A request whose reply still waits
    to be sent (held, pending or sending) is kept whatever its age, and so is one with anything
    dated at or after the cutoff: a repeat of it, or an outcome Apple reported (a recent refund
    counts in history.earlier_refunds).

    \(CommandOption.table(options))

    The cutoff must be at least 7 days ago: Apple sends a notification again for up to about
    six and a half days when it got no 200, and a pruned one would then be decided and
    answered again.

    It runs beside reckon serve and reckon send, in transactions of 500 requests; if one fails
    (another process held the file's lock longer than the 5 s busy timeout), it says what it
    had removed by then, and running it again goes on from there. --dry-run opens the file
    read-only; a real run upgrades an older file's schema first, as the queue commands that
    change an entry do, and at the end copies the log into the file as far as it can without
    waiting for another process.

    Afterwards history.earlier_requests and history.earlier_refunds count only what is left,
    dry-runs with --state and reckon report outcomes see only what is left, and reckon queue
    no longer lists the removed entries. The file keeps its size: SQLite reuses the freed pages
    for new records. To make it smaller, stop serve and send and run
    `sqlite3 reckon-state.sqlite VACUUM`. With state.keepDays in reckon.json, reckon serve
    prunes by itself once a day.

    The state database is --state, or else the one reckon.json names (state.path; --config, or
    ./reckon.json), as reckon report finds it. Example, from a daily cron job:
      reckon prune --older-than 365 --config /etc/reckon/reckon.json
    """

  static func run(_ arguments: inout Arguments, _ console: Console) async throws -> Int32 {
    let olderThan = arguments.option("older-than")
    let before = arguments.option("before")
    let dryRun = arguments.flag("dry-run")
    let format = try OutputFormat.option(&arguments) ?? .text
    let state = try StateFileOption.choice(&arguments)
    try arguments.rejectUnknown()
    let now = Date()
    let cutoff = try cutoff(olderThan: olderThan, before: before, now: now)
    // A dry run reads the file as it is: it neither migrates nor writes it.
    let held = dryRun ? nil : try state.holdAgainstMove()
    defer { held?.release() }
    let store = try state.open(access: dryRun ? .readOnly : .existing)
    let counts = try store.prune(before: cutoff, now: now, dryRun: dryRun, stop: { false })
    // So a copy of the file alone holds the result, as far as that needs no wait for another
    // process: a running service's writes must not time out behind it.
    if !dryRun { _ = try? store.checkpoint(waitingForOthers: false) }
    if format == .json {
      console.out(try PruneReport(cutoff: cutoff, dryRun: dryRun, counts: counts).json())
    } else {
      console.out(text(counts, cutoff: cutoff, dryRun: dryRun))
    }
    return 0
  }

  /// The cutoff from exactly one of `--older-than` and `--before`, refused before the file is
  /// opened when it is too recent.
  private static func cutoff(olderThan: String?, before: String?, now: Date) throws -> Date {
    let cutoff: Date
    switch (olderThan, before) {
    case (nil, nil): throw UsageError("say what to prune: --older-than DAYS or --before DATE")
    case (.some, .some): throw UsageError("give --older-than or --before, not both")
    case (let days?, nil):
      // A hundred years is more than any history; beyond it the date itself goes wrong.
      guard let count = Int(days), count <= 36_500 else {
        throw UsageError(
          "--older-than takes a whole number of days from \(StateRetention.shortestDays) to 36500, e.g. --older-than 365"
        )
      }
      cutoff = now.addingTimeInterval(-Double(count) * 86_400)
    case (nil, let date?):
      do { cutoff = try DryRunSetup.date(date) } catch { throw UsageError("--before: \(error)") }
    }
    let latest = now.addingTimeInterval(-StateRetention.shortest)
    guard cutoff <= latest else {
      let given = olderThan.map { "--older-than \($0)" } ?? "--before \(before ?? "")"
      throw UsageError(
        "\(given): the last \(StateRetention.shortestDays) days are always kept, as Apple sends a notification it got no 200 for again for about six and a half days; give --older-than \(StateRetention.shortestDays) or more, or --before \(latest.formatted(.iso8601)) or earlier"
      )
    }
    return cutoff
  }

  private static func text(_ counts: PruneCounts, cutoff: Date, dryRun: Bool) -> String {
    let when = cutoff.formatted(.iso8601)
    guard !counts.isEmpty else {
      return "nothing to prune: no notification received before \(when) can be removed"
    }
    let parts = counts.described.joined(separator: ", ")
    return dryRun
      ? "would remove, received before \(when): \(parts) (dry run: nothing was changed)"
      : "removed, received before \(when): \(parts)"
  }
}

/// `reckon prune --format json`'s output.
private struct PruneReport: Encodable {
  let cutoff: String
  let dryRun: Bool
  let counts: PruneCounts

  init(cutoff: Date, dryRun: Bool, counts: PruneCounts) {
    self.cutoff = cutoff.formatted(.iso8601)
    self.dryRun = dryRun
    self.counts = counts
  }

  func json() throws -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    return String(decoding: try encoder.encode(self), as: UTF8.self)
  }
}
