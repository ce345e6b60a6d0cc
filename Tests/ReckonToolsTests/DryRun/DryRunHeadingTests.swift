import Foundation
import ReckonEngine
import Testing

@testable import ReckonTools

/// The first line of the text summary reads as a sentence whether the run finished or was
/// stopped, and a run that decided nothing says why.
struct DryRunHeadingTests {
  static func result(rows: Int, total: Int, stopped: Bool) throws -> DryRunResult {
    let fixture = try DryRunFixture.shared()
    var result = DryRunResult(
      rows: [], ignored: 0, total: total, stopped: stopped, policy: try fixture.policy("targeted"),
      against: nil)
    let decided = try fixture.pastRequests().prefix(rows).map {
      DryRunRow(request: $0.request, verdict: nil, against: nil, problem: "not decided here")
    }
    result.rows = Array(decided)
    return result
  }

  @Test func aStoppedRunSaysWhereItStopped() throws {
    let result = try Self.result(rows: 184, total: 2_000, stopped: true)
    let heading = DryRunText.render(result, DryRunSummary(result)).split(separator: "\n").first
    #expect(heading == #"dry-run of policy "targeted": stopped after 184 of 2,000 requests"#)
  }

  /// The unread lines of a requests file may hold other notifications: the total is an upper
  /// bound, and the lines read say how far it got (it said 304 of 3,704 for 2,000 requests).
  @Test func aStoppedRunOverAFileSaysHowManyOfItsLinesItRead() throws {
    var result = try Self.result(rows: 184, total: 3_632, stopped: true)
    result.linesRead = 368
    result.lines = 4_000
    let heading = DryRunText.render(result, DryRunSummary(result)).split(separator: "\n").first
    #expect(
      heading
        == #"dry-run of policy "targeted": stopped after 184 of at most 3,632 requests (368 of 4,000 lines read)"#
    )
  }

  /// The text format has no rows to look in, so it says why requests were not decided.
  @Test func undecidedRequestsAreCountedByWhy() throws {
    let result = try Self.result(rows: 5, total: 5, stopped: false)
    let text = DryRunText.render(result, DryRunSummary(result))
    #expect(text.contains("5 requests not decided:\n  5: not decided here\n"), "\(text)")
  }

  @Test func aFinishedRunSaysHowManyRequests() throws {
    let result = try Self.result(rows: 5, total: 5, stopped: false)
    let heading = DryRunText.render(result, DryRunSummary(result)).split(separator: "\n").first
    #expect(heading == #"dry-run of policy "targeted" over 5 requests"#)
  }

  struct Empty: CustomTestStringConvertible, Sendable {
    let ignored: Int
    let otherApps: Int
    let warning: String
    var testDescription: String { warning }
  }

  @Test(arguments: [
    Empty(
      ignored: 0, otherApps: 0,
      warning: "warning: nothing was decided: r.jsonl holds no CONSUMPTION_REQUEST"),
    Empty(
      ignored: 3, otherApps: 0,
      warning:
        "warning: nothing was decided: r.jsonl holds no CONSUMPTION_REQUEST to decide, only 3 other notifications"
    ),
    Empty(
      ignored: 1, otherApps: 2,
      warning:
        "warning: nothing was decided: r.jsonl holds no CONSUMPTION_REQUEST to decide, only 1 other notifications and 2 requests for apps not in reckon.json"
    ),
  ])
  func aRunThatDecidedNothingSaysWhy(_ example: Empty) throws {
    var result = try Self.result(rows: 0, total: 0, stopped: false)
    result.ignored = example.ignored
    result.otherApps = example.otherApps
    #expect(DryRunText.nothingDecided(result, source: "r.jsonl") == example.warning)
  }

  @Test func aRunThatDecidedSomethingOrWasStoppedHasNoWarning() throws {
    #expect(
      DryRunText.nothingDecided(
        try Self.result(rows: 1, total: 1, stopped: false), source: "r.jsonl") == nil)
    #expect(
      DryRunText.nothingDecided(
        try Self.result(rows: 0, total: 10, stopped: true), source: "r.jsonl") == nil)
  }
}
