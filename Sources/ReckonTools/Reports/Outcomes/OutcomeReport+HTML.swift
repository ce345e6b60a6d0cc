import Foundation

extension OutcomeReport {
  /// The colours of the outcomes, the same in every chart.
  static let outcomeColors = (
    refunded: "#b3261e", reversed: "#e8a29c", declined: "#2e7d32", seats: "#d08a2c",
    none: "#a7b4c2", rate: "#3b6ea5", kept: "#2e7d32"
  )

  /// The report as a self-contained HTML page: the range and the deciding policies, the
  /// headline, with `--by` charts and a table over time, then the groups.
  public func html() -> String {
    var body = "<h1>Refund outcomes</h1>" + meta()
    body +=
      "<p class=\"totals\">Decisions: <b id=\"decisions\">\(DryRunText.n(all.decisions))</b> · with an outcome <b id=\"with-outcome\">\(DryRunText.n(all.withOutcome))</b> · refund rate <b id=\"rate\">\(Self.rate(all.refundRate))</b> (reversed refunds counted as refunded) · net refund rate <b id=\"net-rate\">\(Self.rate(all.netRefundRate))</b> (reversed refunds left out) · prorated refunds <b id=\"prorated\">\(DryRunText.n(all.prorated))</b>, giving back <b id=\"average-prorated\">\(Self.averageProrated(all))</b> of the price on average</p>"
    body += moneyTotals()
    if all.googlePlayReviews > 0 {
      body +=
        "<p class=\"totals\">Google Play: <b id=\"google-play-reviews\">\(DryRunText.n(all.googlePlayReviews))</b> reviews · voided <b id=\"google-play-voided\">\(DryRunText.n(all.googlePlayVoided))</b> (\(Self.rate(all.googlePlayVoidedRate))). Google sends no decline: reviews are left out of the refund rates, and carry no price.</p>"
    }
    if importedHistory.decisions > 0 {
      body +=
        "<p class=\"totals\">Imported history (not answered by Reckon, not in the totals above): <b id=\"imported\">\(DryRunText.n(importedHistory.decisions))</b> requests · with an outcome <b id=\"imported-with-outcome\">\(DryRunText.n(importedHistory.withOutcome))</b> · refund rate <b id=\"imported-rate\">\(Self.rate(importedHistory.refundRate))</b></p>"
    }
    if let period { body += overTime(period) }
    for section in whole.labelledSections { body += Self.section(section.title, section.groups) }
    return HTMLReport.page(title: "Reckon refund outcomes", body: body)
  }

  /// The dates covered and the policies that decided.
  private func meta() -> String {
    var html = "<p class=\"meta\">"
    html += "Covering <b id=\"range\">\(HTMLText.escape(rangeText() ?? "no requests"))</b>"
    if let period {
      html +=
        " · by \(period.unit.rawValue)\(period.unit == .week ? " (ISO weeks, from Monday)" : "") in \(HTMLText.escape(period.zoneName))"
    }
    html += "</p>"
    guard !policies.isEmpty else { return html }
    html += HTMLReport.policyList(
      policies.map { ($0.name, $0.version, $0.sha256, "\(DryRunText.n($0.decisions)) decisions") })
    return html
  }

  private func moneyTotals() -> String {
    let currencies = currenciesKept
    guard !currencies.isEmpty else { return "" }
    var html =
      "<table id=\"money\"><tr><th>currency</th><th class=\"n\">requests priced</th><th class=\"n\">paid (at stake)</th><th class=\"n\">kept</th></tr>"
    for currency in currencies {
      let money = all.money[currency] ?? OutcomeMoney()
      html +=
        "<tr><td>\(HTMLText.escape(currency))</td><td class=\"n\">\(DryRunText.n(money.requests))</td><td class=\"n\">\(OutcomeReport.money(money.atStake))</td><td class=\"n\">\(OutcomeReport.money(money.kept))</td></tr>"
    }
    return html
      + "</table><p class=\"small\">Kept: the whole price of a refund declined or reversed later, and the share of a prorated refund Apple did not give back.</p>"
  }

  /// The charts and table over time.
  private func overTime(_ period: ReportPeriod) -> String {
    let labels = periods.map(\.shownLabel)
    let counts = periods.map(\.sections.all)
    let colors = Self.outcomeColors
    func series(_ name: String, _ color: String, _ value: (Counts) -> Int) -> SVGTimeChart.Series {
      SVGTimeChart.Series(name: name, color: color, values: counts.map { Double(value($0)) })
    }
    var html = "<h2>Over time</h2>"
    let requests = SVGTimeChart(
      title: "Decisions per \(period.unit.rawValue), by outcome", labels: labels,
      series: [
        series("refunded", colors.refunded) { $0.refunded - $0.reversed },
        series("refunded, then reversed", colors.reversed) { $0.reversed },
        series("declined", colors.declined) { $0.declined },
        series("seats refunded", colors.seats) { $0.seatsRefunded },
        series("no outcome yet", colors.none) { $0.noOutcomeYet },
      ])
    html += "<figure id=\"requests-over-time\">\(requests.render())</figure>"
    var rate = SVGTimeChart(
      title: "Refund rate per \(period.unit.rawValue) (of decisions with an outcome)",
      labels: labels,
      series: [.init(name: "refund rate", color: colors.rate, values: counts.map(\.refundRate))])
    rate.points = true
    rate.maximum = 1
    rate.format = { String(format: "%.0f%%", $0 * 100) }
    html += "<figure id=\"rate-over-time\">\(rate.render())</figure>"
    for currency in currenciesKept {
      var kept = SVGTimeChart(
        title: "Money kept per \(period.unit.rawValue) (\(currency))", labels: labels,
        series: [
          .init(
            name: "kept (\(currency))", color: colors.kept,
            values: counts.map { Double($0.money[currency]?.kept ?? 0) })
        ])
      kept.format = { OutcomeReport.money(Int64($0.rounded())) }
      html += "<figure class=\"kept-over-time\">\(kept.render())</figure>"
    }
    return html + periodTable()
  }

  private func periodTable() -> String {
    let currencies = currenciesKept
    var html =
      "<table id=\"periods\"><tr><th>period</th><th class=\"n\">decisions</th><th class=\"n\">with outcome</th><th class=\"n\">refunded</th><th class=\"n\">declined</th><th class=\"n\">reversed</th><th class=\"n\">no outcome yet</th><th class=\"n\">rate</th>"
      + currencies.map { "<th class=\"n\">kept \(HTMLText.escape($0))</th>" }.joined() + "</tr>"
    for period in periods {
      let counts = period.sections.all
      html +=
        "<tr><td>\(HTMLText.escape(period.shownLabel))</td>"
        + [
          counts.decisions, counts.withOutcome, counts.refunded, counts.declined, counts.reversed,
          counts.noOutcomeYet,
        ].map { "<td class=\"n\">\(DryRunText.n($0))</td>" }.joined()
        + "<td class=\"n\">\(Self.rate(counts.refundRate))</td>"
        + currencies.map {
          "<td class=\"n\">\(OutcomeReport.money(counts.money[$0]?.kept ?? 0))</td>"
        }.joined() + "</tr>"
    }
    return html + "</table>"
  }

  private static func section(_ title: String, _ groups: [String: Counts]) -> String {
    // A group with no outcome yet has no rate; a 0% bar would say Apple refunded none.
    let bars = groups.sorted { $0.key < $1.key }.compactMap { name, counts in
      counts.refundRate.map { (name, Int(($0 * 100).rounded())) }
    }
    var html =
      "<h2>\(HTMLText.escape(title))</h2><figure>\(SVGBarChart(title: "Refund rate (%) \(title.lowercased())", bars: bars).render())</figure>"
    html +=
      "<table><tr><th></th><th class=\"n\">decisions</th><th class=\"n\">with outcome</th><th class=\"n\">refunded</th><th class=\"n\">declined</th><th class=\"n\">reversed</th><th class=\"n\">prorated</th><th class=\"n\">seats refunded</th><th class=\"n\">avg prorated</th><th class=\"n\">rate</th><th class=\"n\">net rate</th><th class=\"n\">money kept</th></tr>"
    for (name, counts) in groups.sorted(by: { $0.key < $1.key }) {
      html +=
        "<tr><td>\(HTMLText.escape(name))</td>"
        + [
          counts.decisions, counts.withOutcome, counts.refunded, counts.declined, counts.reversed,
          counts.prorated, counts.seatsRefunded,
        ].map { "<td class=\"n\">\(DryRunText.n($0))</td>" }.joined()
        + "<td class=\"n\">\(averageProrated(counts))</td><td class=\"n\">\(rate(counts.refundRate))</td><td class=\"n\">\(rate(counts.netRefundRate))</td><td class=\"n\">\(HTMLText.escape(kept(counts)))</td></tr>"
    }
    return html + "</table>"
  }
}
