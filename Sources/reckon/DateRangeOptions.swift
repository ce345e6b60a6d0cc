import Foundation
import ReckonEngine
import ReckonState
import ReckonTools

/// `--since DATE` and `--until DATE`: requests received at or after `since` and before `until`
/// (exclusive), with `since` required to come first so an empty range is an error, not a
/// report of nothing.
struct DateRangeOptions {
  let since: Date?
  let until: Date?
  /// Whether either option was given.
  var isGiven: Bool { since != nil || until != nil }
  /// The option names given, for messages.
  let given: [String]
  /// The dates as written, for messages.
  let sinceText: String?
  let untilText: String?

  /// The range the options give; with `timeZone`, a bare date (2026-12-01) is that day's
  /// midnight there rather than in UTC, so periods cut in that zone start and end whole.
  init(_ arguments: inout Arguments, timeZone: TimeZone? = nil) throws {
    sinceText = arguments.option("since")
    untilText = arguments.option("until")
    since = try sinceText.map { text throws(UsageError) in
      try Self.date(text, "--since", timeZone)
    }
    until = try untilText.map { text throws(UsageError) in
      try Self.date(text, "--until", timeZone)
    }
    given = [sinceText.map { _ in "--since" }, untilText.map { _ in "--until" }].compactMap { $0 }
    if let since, let until, let sinceText, let untilText, since >= until {
      throw UsageError(
        "--since \(sinceText) must be before --until \(untilText) (--until is exclusive)")
    }
  }

  /// A date option's value; one that is no date is a usage error (exit 2), as `eval --now`'s is.
  private static func date(_ text: String, _ option: String, _ timeZone: TimeZone?)
    throws(UsageError) -> Date
  {
    let date: Date
    do { date = try DryRunSetup.date(text) } catch { throw UsageError("\(option): \(error)") }
    guard let timeZone, Self.isBareDate(text) else { return date }
    var utc = Calendar(identifier: .gregorian)
    utc.timeZone = TimeZone(identifier: "UTC")!
    var local = Calendar(identifier: .gregorian)
    local.timeZone = timeZone
    let day = utc.dateComponents([.year, .month, .day], from: date)
    return local.date(from: day) ?? date
  }

  /// Whether `text` is a date without a time (YYYY-MM-DD).
  private static func isBareDate(_ text: String) -> Bool {
    let bytes = Array(text.utf8)
    return bytes.count == 10
      && bytes.enumerated().allSatisfy { index, byte in
        index == 4 || index == 7
          ? byte == UInt8(ascii: "-") : (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
      }
  }

  /// Why a run over `store` found nothing when the database holds requests outside the window
  /// (`decided`: decided ones), saying how many it holds and when they were received; nil when
  /// no window was given or the database holds none at all.
  func emptyWindowNote(_ store: any StateStore, decided: Bool) throws -> String? {
    guard isGiven else { return nil }
    let span = try store.requestSpan(decided: decided)
    guard span.count > 0 else { return nil }
    return span.emptyWindow(
      since: sinceText, until: untilText, kind: decided ? "decided request" : "request")
  }
}
