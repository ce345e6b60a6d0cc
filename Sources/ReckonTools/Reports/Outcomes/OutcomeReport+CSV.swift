import Foundation

extension OutcomeReport {
  /// The report as CSV for a spreadsheet: a row per group (the headline as `all`), or with
  /// `--by` a row per period and group instead (a period's `all` row is its headline; sum
  /// them for the window's; `period_partial` says the window cuts the period); a pair of money columns per currency (`at_stake_EUR`,
  /// `kept_EUR`, in units of the currency), as currencies are never added together.
  public func csv() -> String {
    let currencies = currenciesKept
    var lines = [
      "period,period_start,period_end,period_partial,section,group,decisions,with_outcome,refunded,declined,reversed,prorated,seats_refunded,no_outcome_yet,refund_rate,net_refund_rate,average_prorated_percent,google_play_reviews,google_play_voided,unpriced"
        + OutcomeMoney.csvHeader(currencies)
    ]
    let zone = period ?? ReportPeriod(.day)
    if period == nil {
      rows(whole, prefix: ",,,", currencies, &lines)
    }
    for row in periods {
      // A period the window cuts holds only its part inside the window, as the text says.
      let prefix =
        "\(row.label),\(zone.timestamp(row.interval.start)),\(zone.timestamp(row.interval.end)),"
        + "\(row.isPartial)"
      rows(row.sections, prefix: prefix, currencies, &lines)
    }
    return lines.joined(separator: "\n") + "\n"
  }

  private func rows(
    _ sections: OutcomeSections, prefix: String, _ currencies: [String], _ lines: inout [String]
  ) {
    lines.append(Self.row(prefix, "all", "all", sections.all, currencies))
    if sections.importedHistory.decisions > 0 || period == nil {
      lines.append(
        Self.row(prefix, "importedHistory", "all", sections.importedHistory, currencies))
    }
    for section in sections.sections {
      for (name, counts) in section.groups.sorted(by: { $0.key < $1.key }) {
        lines.append(Self.row(prefix, section.key, name, counts, currencies))
      }
    }
  }

  private static func row(
    _ prefix: String, _ section: String, _ group: String, _ counts: Counts, _ currencies: [String]
  ) -> String {
    let numbers = [
      counts.decisions, counts.withOutcome, counts.refunded, counts.declined, counts.reversed,
      counts.prorated, counts.seatsRefunded, counts.noOutcomeYet,
    ].map(String.init)
    let rates =
      [counts.refundRate, counts.netRefundRate].map {
        $0.map { String(format: "%.4f", $0) } ?? ""
      } + [counts.averageProratedPercentage.map { String(format: "%.3f", $0) } ?? ""]
    let google = [counts.googlePlayReviews, counts.googlePlayVoided, counts.unpriced].map(
      String.init)
    let money = currencies.flatMap { currency in
      let sums = counts.money[currency] ?? OutcomeMoney()
      return [
        DryRunText.money(Int(sums.atStake), grouped: false),
        DryRunText.money(Int(sums.kept), grouped: false),
      ]
    }
    return
      ([prefix, DryRunRows.escape(section), DryRunRows.escape(group)] + numbers + rates
      + google + money).joined(separator: ",")
  }
}
