import Foundation
import ReckonSupport

extension RuleReport {
  /// The report as text: per policy a line per rule, then the rules no policy has now.
  public func text() -> String {
    var lines: [String] = []
    if let range = rangeText() { lines.append("Decisions received \(range)") }
    let currencies = currencies
    let names = TextColumn(
      (policies.flatMap(\.rules) + retired).map(\.name), minimum: 30, maximum: 50)
    let header =
      "  " + names.cell("rule")
      + "  decisions   share  outcome  refunded  declined  reversed  no outcome    rate"
      + currencies.map {
        "  " + OutcomeReport.pad("at stake \($0)", 16) + "  " + OutcomeReport.pad("kept \($0)", 14)
      }
      .joined()
    for policy in policies {
      let version = policy.source.version.map { " version \($0)" } ?? ""
      lines.append("")
      lines.append(
        "Policy “\(policy.source.name)”\(version) (\(policy.source.path), sha256 \(policy.source.sha256))"
      )
      lines.append(header)
      for rule in policy.rules {
        lines.append(Self.line(rule, names, of: policy.decisions, currencies))
      }
      let dead = policy.rules.filter { $0.counts.decisions == 0 }.count
      if dead > 0 {
        lines.append("  \(dead) of \(policy.rules.count) rules decided nothing in the window")
      }
    }
    if !retired.isEmpty {
      lines.append("")
      lines.append("Rules in the state's decisions but in none of these policies")
      lines.append(header)
      for rule in retired {
        lines.append(Self.line(rule, names, of: decisions, currencies, policy: true))
      }
    }
    return TerminalSafeText.shown(lines.joined(separator: "\n")) + "\n"
  }

  private static func line(
    _ rule: Rule, _ names: TextColumn, of total: Int, _ currencies: [String], policy: Bool = false
  ) -> String {
    let counts = rule.counts
    let share =
      total == 0 ? "—" : String(format: "%.1f%%", Double(counts.decisions) / Double(total) * 100)
    let numbers = zip(
      [
        counts.decisions, counts.withOutcome, counts.refunded, counts.declined, counts.reversed,
        counts.noOutcomeYet,
      ],
      [9, 7, 8, 8, 8, 10]
    ).map { OutcomeReport.pad(DryRunText.n($0), $1) }
    return "  " + names.cell(policy ? "\(rule.policy): \(rule.name)" : rule.name) + "  "
      + numbers[0] + "  " + OutcomeReport.pad(share, 6) + "  "
      + numbers[1...].joined(separator: "  ")
      + "  " + OutcomeReport.pad(OutcomeReport.rate(counts.refundRate), 6)
      + currencies.map { currency in
        let money = counts.money[currency] ?? OutcomeMoney()
        return "  " + OutcomeReport.pad(OutcomeReport.money(money.atStake), 16) + "  "
          + OutcomeReport.pad(OutcomeReport.money(money.kept), 14)
      }.joined()
  }

  /// The report as JSON: the policies with their rules' counts (as the outcomes report's
  /// groups), and the retired rules.
  public func json() -> String {
    func rule(_ rule: Rule) -> String {
      "{\"policy\":\(DryRunRows.quote(rule.policy)),\"rule\":\(DryRunRows.quote(rule.name)),\"counts\":\(OutcomeReport.object(rule.counts))}"
    }
    let zone = ReportPeriod(.day)
    func date(_ date: Date?) -> String { date.map { "\"\(zone.timestamp($0))\"" } ?? "null" }
    let list = policies.map { policy in
      "{\"name\":\(DryRunRows.quote(policy.source.name)),\"version\":\(policy.source.version.map(DryRunRows.quote) ?? "null"),\"sha256\":\(DryRunRows.quote(policy.source.sha256)),\"path\":\(DryRunRows.quote(policy.source.path)),\"decisions\":\(policy.decisions),\"rules\":[\(policy.rules.map(rule).joined(separator: ","))]}"
    }
    return
      "{\"range\":{\"since\":\(date(since)),\"until\":\(date(until)),\"first\":\(date(first)),\"last\":\(date(last))},\"policies\":[\(list.joined(separator: ","))],\"notInPolicies\":[\(retired.map(rule).joined(separator: ","))]}\n"
  }

  /// The report as CSV: a row per rule, `in_policy` false for the retired ones.
  public func csv() -> String {
    let currencies = currencies
    var lines = [
      "policy,rule,in_policy,decisions,with_outcome,refunded,declined,reversed,no_outcome_yet,refund_rate,google_play_reviews,google_play_voided"
        + OutcomeMoney.csvHeader(currencies)
    ]
    let rows = policies.flatMap { $0.rules.map { ($0, true) } } + retired.map { ($0, false) }
    for (rule, live) in rows {
      let counts = rule.counts
      var fields = [DryRunRows.escape(rule.policy), DryRunRows.escape(rule.name), String(live)]
      fields += [
        counts.decisions, counts.withOutcome, counts.refunded, counts.declined, counts.reversed,
        counts.noOutcomeYet,
      ].map(String.init)
      fields.append(counts.refundRate.map { String(format: "%.4f", $0) } ?? "")
      fields += [counts.googlePlayReviews, counts.googlePlayVoided].map(String.init)
      for currency in currencies {
        let money = counts.money[currency] ?? OutcomeMoney()
        fields.append(DryRunText.money(Int(money.atStake), grouped: false))
        fields.append(DryRunText.money(Int(money.kept), grouped: false))
      }
      lines.append(fields.joined(separator: ","))
    }
    return lines.joined(separator: "\n") + "\n"
  }
}
