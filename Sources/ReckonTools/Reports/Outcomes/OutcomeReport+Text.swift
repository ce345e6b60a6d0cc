import Foundation
import ReckonSupport

extension OutcomeReport {
  /// The report as text tables: the headline, with `--by` a line per period, then the groups.
  public func text() -> String {
    var lines = headline()
    lines.append("")
    if let period { periodTable(period, &lines) }
    // One width for every section, so their numbers line up.
    let sections = whole.labelledSections
    let names = TextColumn(sections.flatMap(\.groups.keys), minimum: 44, maximum: 60)
    for section in sections {
      lines.append(section.title)
      lines.append(
        "  " + names.cell("") + " "
          + "decisions  outcome  refunded  declined  reversed  prorated  seats  avg prorated    rate  net rate  money kept"
      )
      for (name, counts) in section.groups.sorted(by: { $0.key < $1.key }) {
        // Counts with thousands separators, as the dry-run prints them.
        let columns = zip(
          [
            counts.decisions, counts.withOutcome, counts.refunded, counts.declined,
            counts.reversed, counts.prorated, counts.seatsRefunded,
          ], [9, 7, 8, 8, 8, 8, 5]
        ).map { Self.pad(DryRunText.n($0), $1) + "  " }
        lines.append(
          "  \(names.cell(name)) " + columns.joined()
            + Self.pad(Self.averageProrated(counts), 12) + "  "
            + Self.pad(Self.rate(counts.refundRate), 6)
            + "  " + Self.pad(Self.rate(counts.netRefundRate), 8) + "  " + Self.kept(counts))
      }
      lines.append("")
    }
    return TerminalSafeText.shown(lines.joined(separator: "\n"))
  }

  private func headline() -> [String] {
    var lines = [
      "\(DryRunText.n(all.decisions)) decisions, \(DryRunText.n(all.withOutcome)) with an outcome, refund rate \(Self.rate(all.refundRate))"
        + " (reversed refunds counted as refunded), net refund rate \(Self.rate(all.netRefundRate))"
        + " (reversed refunds left out)",
      "prorated refunds: \(DryRunText.n(all.prorated)), giving back \(Self.averageProrated(all)) of the price on average",
    ]
    for (currency, money) in all.money.sorted(by: { $0.key < $1.key }) {
      lines.append(
        "money kept: \(currency) \(OutcomeReport.money(money.kept)) of \(OutcomeReport.money(money.atStake)) paid for the \(DryRunText.n(money.requests)) purchases asked about"
      )
    }
    if all.googlePlayReviews > 0 {
      lines.append(
        "Google Play: \(DryRunText.n(all.googlePlayReviews)) reviews, \(DryRunText.n(all.googlePlayVoided)) voided (\(Self.rate(all.googlePlayVoidedRate)); Google sends no decline, so reviews are left out of the refund rates and have no price)"
      )
    }
    if importedHistory.decisions > 0 {
      lines.append(
        "imported history (not answered by Reckon, not in the totals above): "
          + "\(DryRunText.n(importedHistory.decisions)) requests, "
          + "\(DryRunText.n(importedHistory.withOutcome)) with an outcome, refund rate "
          + Self.rate(importedHistory.refundRate))
    }
    if let range = rangeText() { lines.append(range) }
    return lines
  }

  /// The dates covered, as the report's periods (cut to the window) span them, or the window,
  /// or the requests.
  func rangeText() -> String? {
    let zone = period ?? ReportPeriod(.day)
    if let start = periods.first?.interval.start, let end = periods.last?.interval.end {
      return "from \(zone.timestamp(start)) to \(zone.timestamp(end)) (exclusive)"
    }
    guard let start = since ?? first, let end = until ?? last else { return nil }
    return
      "from \(zone.timestamp(start)) to \(zone.timestamp(end))\(until == nil ? "" : " (exclusive)")"
  }

  private func periodTable(_ period: ReportPeriod, _ lines: inout [String]) {
    let currencies = currenciesKept
    lines.append(
      "By \(period.unit.rawValue) (\(period.unit == .week ? "ISO weeks from Monday, " : "")\(period.zoneName))"
    )
    let width = max(10, periods.map(\.shownLabel.count).max() ?? 0)
    lines.append(
      "  " + "period".padding(toLength: width, withPad: " ", startingAt: 0)
        + "  decisions  outcome  refunded  declined  reversed  no outcome    rate"
        + currencies.map { "  " + Self.pad("kept \($0)", 14) }.joined())
    for period in periods {
      let counts = period.sections.all
      let columns = zip(
        [
          counts.decisions, counts.withOutcome, counts.refunded, counts.declined,
          counts.reversed, counts.noOutcomeYet,
        ], [9, 7, 8, 8, 8, 10]
      ).map { Self.pad(DryRunText.n($0), $1) + "  " }
      lines.append(
        "  " + period.shownLabel.padding(toLength: width, withPad: " ", startingAt: 0) + "  "
          + columns.joined() + Self.pad(Self.rate(counts.refundRate), 6)
          + currencies.map {
            "  " + Self.pad(OutcomeReport.money(counts.money[$0]?.kept ?? 0), 14)
          }.joined())
    }
    lines.append("")
  }

  /// The currencies any request in the report was priced in, in order.
  var currenciesKept: [String] {
    Set(whole.all.money.keys).union(whole.importedHistory.money.keys).sorted()
  }

  /// Money kept per currency, `EUR 12.50, USD 3.99`; `—` when no request had a price.
  static func kept(_ counts: Counts) -> String {
    guard !counts.money.isEmpty else { return "—" }
    return counts.money.sorted { $0.key < $1.key }.map {
      "\($0.key) \(OutcomeReport.money($0.value.kept))"
    }.joined(separator: ", ")
  }

  static func averageProrated(_ counts: Counts) -> String {
    counts.averageProratedPercentage.map { String(format: "%.1f%%", $0) } ?? "—"
  }

  static func pad(_ text: String, _ width: Int) -> String {
    String(repeating: " ", count: max(0, width - text.count)) + text
  }

  static func rate(_ rate: Double?) -> String {
    rate.map { String(format: "%.1f%%", $0 * 100) } ?? "—"
  }

  static func number(_ rate: Double?) -> String {
    rate.map { String(format: "%.4f", $0) } ?? "null"
  }
}
