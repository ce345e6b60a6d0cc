import Foundation
import ReckonEngine

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

  init(_ arguments: inout Arguments) throws {
    let sinceText = arguments.option("since")
    let untilText = arguments.option("until")
    since = try sinceText.map(DryRunSetup.date)
    until = try untilText.map(DryRunSetup.date)
    given = [sinceText.map { _ in "--since" }, untilText.map { _ in "--until" }].compactMap { $0 }
    if let since, let until, let sinceText, let untilText, since >= until {
      throw UsageError(
        "--since \(sinceText) must be before --until \(untilText) (--until is exclusive)")
    }
  }
}
