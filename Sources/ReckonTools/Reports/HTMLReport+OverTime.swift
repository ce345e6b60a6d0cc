import Foundation
import ReckonState

extension HTMLReport {
  /// The dry-run's head: the dates its requests span and the policies (name, version, SHA-256),
  /// then the answers per period, and the store's outcome per period where the requests have one
  /// (a run over a state database, which holds them).
  static func dryRunOverTime(_ result: DryRunResult) -> String {
    let dates = result.rows.lazy.map(\.receivedAt)
    guard let first = dates.min(), let last = dates.max() else { return "" }
    let period = ReportPeriod(unit(spanning: last.timeIntervalSince(first)))
    var html =
      "<p class=\"meta\">Requests received from <b id=\"range\">\(period.timestamp(first)) to \(period.timestamp(last))</b></p>"
    var policies = [(result.policyName, result.policyVersion, result.policySHA256, "this policy")]
    if let name = result.againstName, let against = result.against {
      policies.append((name, against.version, against.sha256, "--against"))
    }
    html += policyList(policies)
    let periods = period.intervals(from: first, through: last)
    let labels = periods.map { period.label($0.start) }
    var answers = Array(repeating: Array(repeating: 0.0, count: periods.count), count: 5)
    var outcomes = Array(repeating: Array(repeating: 0.0, count: periods.count), count: 4)
    var index = 0
    for row in result.rows.sorted(by: { $0.receivedAt < $1.receivedAt }) {
      while index < periods.count - 1, row.receivedAt >= periods[index].end { index += 1 }
      answers[answerSeries(row.verdict?.outcome)][index] += 1
      guard let verdicts = result.storeVerdicts else { continue }
      let outcome = verdicts.outcome(
        row.transactionId, row.environment?.rawValue, after: row.receivedAt)
      outcomes[outcomeSeries(outcome)][index] += 1
    }
    let colors = OutcomeReport.outcomeColors
    let answerNames = [
      ("grant in full", "#b3261e"), ("grant prorated", "#e8a29c"), ("decline", "#2e7d32"),
      ("share data only", "#3b6ea5"), ("skip or not decided", "#a7b4c2"),
    ]
    let chart = SVGTimeChart(
      title: "Requests per \(period.unit.rawValue), by this policy's answer", labels: labels,
      series: zip(answerNames, answers).map { .init(name: $0.0, color: $0.1, values: $1) })
    html += "<figure id=\"answers-over-time\">\(chart.render())</figure>"
    guard result.storeVerdicts != nil else { return html }
    let known = outcomes[0..<3].joined().reduce(0, +)
    html +=
      "<p class=\"totals\">The store's outcome is known for <b id=\"store-outcomes\">\(DryRunText.n(Int(known)))</b> of the requests: what it did with the answer the live service sent then, not with this policy's.</p>"
    let outcome = SVGTimeChart(
      title: "Requests per \(period.unit.rawValue), by the store's outcome", labels: labels,
      series: zip(
        [
          ("refunded", colors.refunded), ("declined", colors.declined),
          ("seats refunded", colors.seats), ("no outcome yet", colors.none),
        ], outcomes
      ).map { .init(name: $0.0, color: $0.1, values: $1) })
    return html + "<figure id=\"store-outcomes-over-time\">\(outcome.render())</figure>"
  }

  /// Days for up to two months of requests, weeks for up to two years, months beyond.
  private static func unit(spanning seconds: TimeInterval) -> ReportPeriod.Unit {
    seconds <= 62 * 86_400 ? .day : seconds <= 730 * 86_400 ? .week : .month
  }

  private static func answerSeries(_ outcome: DryRunOutcome?) -> Int {
    switch outcome?.preference {
    case "GRANT_FULL"?: 0
    case "GRANT_PRORATED"?: 1
    case "DECLINE"?: 2
    case "none"?: 3
    default: 4
    }
  }

  private static func outcomeSeries(_ outcome: OutcomeType?) -> Int {
    switch outcome {
    case .refund?: 0
    case .refundDeclined?: 1
    case .seatsRefunded?: 2
    default: 3
    }
  }
}
