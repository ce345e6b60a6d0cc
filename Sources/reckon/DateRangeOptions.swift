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

  init(_ arguments: inout Arguments) throws {
    sinceText = arguments.option("since")
    untilText = arguments.option("until")
    since = try sinceText.map { text throws(UsageError) in try Self.date(text, "--since") }
    until = try untilText.map { text throws(UsageError) in try Self.date(text, "--until") }
    given = [sinceText.map { _ in "--since" }, untilText.map { _ in "--until" }].compactMap { $0 }
    if let since, let until, let sinceText, let untilText, since >= until {
      throw UsageError(
        "--since \(sinceText) must be before --until \(untilText) (--until is exclusive)")
    }
  }

  /// A date option's value; one that is no date is a usage error (exit 2), as `eval --now`'s is.
  private static func date(_ text: String, _ option: String) throws(UsageError) -> Date {
    do { return try DryRunSetup.date(text) } catch { throw UsageError("\(option): \(error)") }
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
