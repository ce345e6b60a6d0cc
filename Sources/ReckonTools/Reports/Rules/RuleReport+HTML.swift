import Foundation

extension RuleReport {
  /// The report as a self-contained HTML page: the policies (name, version, hash), and per
  /// policy a chart of how often each rule decided and a table of what followed.
  public func html() -> String {
    var body = "<h1>Rules and their outcomes</h1>"
    body +=
      "<p class=\"meta\">Covering <b id=\"range\">\(HTMLText.escape(rangeText() ?? "no decisions"))</b></p>"
    body += HTMLReport.policyList(
      policies.map {
        ($0.source.name, $0.source.version, $0.source.sha256, $0.source.path)
      })
    let currencies = currencies
    for policy in policies {
      body += "<h2>\(HTMLText.escape(policy.source.name))</h2>"
      let chart = SVGBarChart(
        title: "Decisions by rule", bars: policy.rules.map { ($0.name, $0.counts.decisions) })
      body += "<figure>\(chart.render())</figure>"
      body += Self.table(policy.rules, currencies, id: nil)
    }
    if !retired.isEmpty {
      body += "<h2>Rules in the state's decisions but in none of these policies</h2>"
      body += Self.table(retired, currencies, id: "not-in-policies", qualified: true)
    }
    return HTMLReport.page(title: "Reckon rules report", body: body)
  }

  private static func table(
    _ rules: [Rule], _ currencies: [String], id: String?, qualified: Bool = false
  ) -> String {
    var html =
      "<table\(id.map { " id=\"\($0)\"" } ?? "") class=\"rules\"><tr><th>rule</th><th class=\"n\">decisions</th><th class=\"n\">with outcome</th><th class=\"n\">refunded</th><th class=\"n\">declined</th><th class=\"n\">no outcome yet</th><th class=\"n\">refund rate</th>"
      + currencies.map {
        "<th class=\"n\">at stake \(HTMLText.escape($0))</th><th class=\"n\">kept \(HTMLText.escape($0))</th>"
      }.joined() + "</tr>"
    for rule in rules {
      let counts = rule.counts
      let name = qualified ? "\(rule.policy): \(rule.name)" : rule.name
      html +=
        "<tr class=\"\(counts.decisions == 0 ? "dead" : "live")\"><td>\(HTMLText.escape(name))</td>"
        + [
          counts.decisions, counts.withOutcome, counts.refunded, counts.declined,
          counts.noOutcomeYet,
        ]
        .map { "<td class=\"n\">\(DryRunText.n($0))</td>" }.joined()
        + "<td class=\"n\">\(OutcomeReport.rate(counts.refundRate))</td>"
        + currencies.map { currency in
          let money = counts.money[currency] ?? OutcomeMoney()
          return
            "<td class=\"n\">\(OutcomeReport.money(money.atStake))</td><td class=\"n\">\(OutcomeReport.money(money.kept))</td>"
        }.joined() + "</tr>"
    }
    return html + "</table>"
  }
}
