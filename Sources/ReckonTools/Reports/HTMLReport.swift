import Foundation
import ReckonEngine

/// Reports as one self-contained HTML file for a product owner's browser: inline CSS and SVG
/// charts, no scripts, nothing fetched from elsewhere.
public enum HTMLReport {
  /// The dry-run report: totals, charts by answer (action and preference), rule, reason and
  /// product type, and with `--against` the changes and the changed requests (the first
  /// `changedShown`).
  public static func dryRun(
    _ result: DryRunResult, _ summary: DryRunSummary, changedShown: Int = 500
  )
    -> String
  {
    var body = "<h1>Dry-run of “\(HTMLText.escape(result.policyName))”</h1>"
    body += dryRunOverTime(result)
    body +=
      "<p class=\"totals\">Requests: <b id=\"total\">\(DryRunText.n(summary.decided + summary.undecided))</b>"
    body += " · decided <b id=\"decided\">\(DryRunText.n(summary.decided))</b>"
    if summary.undecided > 0 { body += " · not decided <b>\(DryRunText.n(summary.undecided))</b>" }
    if result.stopped { body += " · <b>stopped early</b> (partial)" }
    if result.againstName != nil {
      body +=
        " · changed against “\(HTMLText.escape(result.againstName ?? ""))”: <b id=\"changed\">\(DryRunText.n(summary.changed))</b>"
    }
    body += "</p>"
    body += appleRules(result, summary)
    if summary.withoutFacts > 0 {
      body +=
        "<p class=\"without-facts\">No facts found for <b id=\"without-facts\">\(DryRunText.n(summary.withoutFacts))</b> "
        + "requests (their transactions are in no fact source): they are decided on the "
        + "notification alone.</p>"
    }
    body += leftOut(result)
    body += table("By action", summary.byAction, total: summary.decided)
    let outcomes = DryRunOutcome.allCases.filter {
      (summary.byOutcome[$0] ?? 0) + (summary.againstByOutcome[$0] ?? 0) > 0
    }
    var chart = SVGBarChart(
      title: "Answers by action",
      bars: outcomes.map { ($0.description, summary.byOutcome[$0] ?? 0) })
    if result.againstName != nil {
      chart.secondary = outcomes.map { summary.againstByOutcome[$0] ?? 0 }
    }
    body += "<figure>\(chart.render())"
    if result.againstName != nil {
      body +=
        "<figcaption><span class=\"key a\"></span>\(HTMLText.escape(result.policyName)) <span class=\"key b\"></span>\(HTMLText.escape(result.againstName ?? ""))</figcaption>"
    }
    body += "</figure>"
    body +=
      "<figure>\(SVGBarChart(title: "Deciding rule", bars: CountTable.sorted(summary.byRule, order: DryRunText.ruleOrder(result))).render())</figure>"
    body +=
      "<figure>\(SVGBarChart(title: "Requests by reason", bars: CountTable.sorted(summary.byReason.mapValues { $0.values.reduce(0, +) })).render())</figure>"
    body +=
      "<figure>\(SVGBarChart(title: "Requests by product type", bars: CountTable.sorted(summary.byProductType.mapValues { $0.values.reduce(0, +) })).render())</figure>"
    body += purchaseValue(result, summary)
    body += breakdown("Answers by reason", summary.byReason)
    body += breakdown("Answers by product type", summary.byProductType)
    if result.againstName != nil { body += changes(result, summary, shown: changedShown) }
    return page(title: "Reckon dry-run: \(result.policyName)", body: body)
  }

  /// The requests that would get no reply because the body breaks Apple's rules, as the text
  /// summary's headline says it, with the rules broken; empty when there are none.
  static func appleRules(_ result: DryRunResult, _ summary: DryRunSummary) -> String {
    guard let note = DryRunText.appleRulesNote(result, summary) else { return "" }
    let total = summary.breaksAppleRules.values.reduce(0, +)
    let count = DryRunText.n(total)
    // The count in the sentence is marked up, so a test can read it without parsing words.
    let sentence = HTMLText.escape(String(note.dropFirst(count.count)))
    var html =
      "<div class=\"apple-rules\"><p><b id=\"breaks-apple-rules\">\(count)</b>\(sentence)</p><ul>"
    for (violation, broken) in DryRunText.appleRulesBroken(summary) {
      html +=
        "<li>\(DryRunText.n(broken)): \(HTMLText.escape(violation.inWords))</li>"
    }
    return html + "</ul></div>"
  }

  /// What the run left out, as the text summary lists it, so the page's totals are not taken
  /// for everything the source held.
  static func leftOut(_ result: DryRunResult) -> String {
    let counts = [
      (
        "duplicates", "copies of a notification already read (the same notificationUUID)",
        result.duplicates
      ),
      (
        "repeats", "repeats of a request still open (serve answers them by its decision)",
        result.repeats
      ),
      ("other-apps", "requests for apps not in reckon.json", result.otherApps),
      ("ignored", "other notifications (not CONSUMPTION_REQUEST) ignored", result.ignored),
      ("unreadable", "unreadable lines (--skip-bad-lines)", result.unreadable.count),
    ].filter { $0.2 > 0 }
    guard !counts.isEmpty else { return "" }
    return "<p class=\"left-out\">Left out: "
      + counts.map { id, label, count in "\(label) <b id=\"\(id)\">\(DryRunText.n(count))</b>" }
      .joined(
        separator: " · ") + "</p>"
  }

  static func changes(_ result: DryRunResult, _ summary: DryRunSummary, shown: Int) -> String {
    var html =
      "<h2>What changes</h2><table><tr><th>from</th><th>to</th><th class=\"n\">requests</th></tr>"
    for (transition, count) in summary.transitions.sorted(by: {
      $0.value > $1.value || $0.value == $1.value && $0.key < $1.key
    }) {
      let to =
        transition.from == transition.to
        ? "\(transition.to) (body differs)" : transition.to.description
      html +=
        "<tr><td>\(HTMLText.escape(transition.from.description))</td><td>\(HTMLText.escape(to))</td><td class=\"n\">\(DryRunText.n(count))</td></tr>"
    }
    html +=
      "</table><h2>Changed requests</h2><table><tr><th>transaction</th><th>received (UTC)</th><th>reason</th><th>now</th><th>rule</th><th>against</th><th>rule</th></tr>"
    for row in result.rows.lazy.filter(\.changed).prefix(shown) {
      guard let verdict = row.verdict, let against = row.against else { continue }
      html +=
        "<tr><td>\(HTMLText.escape(row.transactionId))</td><td>\(DryRunRows.timestamp(row.receivedAt).prefix(16))</td><td>\(HTMLText.escape(row.reason ?? ""))</td>"
      html +=
        "<td>\(HTMLText.escape(verdict.outcome.description))</td><td>\(HTMLText.escape(result.ruleName(verdict.ruleIndex)))</td>"
      html +=
        "<td>\(HTMLText.escape(against.outcome.description))</td><td>\(HTMLText.escape(result.againstRuleName(against.ruleIndex)))</td></tr>"
    }
    if summary.changed > shown {
      html +=
        "<tr><td colspan=\"7\">… and \(DryRunText.n(summary.changed - shown)) more (see --format csv)</td></tr>"
    }
    return html + "</table>"
  }

  /// What the customers paid for the purchases the answers are about, per currency and refund
  /// preference, beside the `--against` policy's; empty when no request carried a price.
  static func purchaseValue(_ result: DryRunResult, _ summary: DryRunSummary) -> String {
    let mine = summary.purchaseValueByPreference
    let theirs = summary.againstPurchaseValueByPreference
    let currencies = Set(mine.keys).union(theirs.keys).sorted()
    guard !currencies.isEmpty else { return "" }
    let preferences = DryRunSummary.valuePreferences
    let against = result.againstName != nil
    var html = "<h2>Purchase value by preference</h2><table id=\"purchase-value\"><tr><th></th>"
    html +=
      preferences.map {
        "<th class=\"n\">\(HTMLText.escape(DryRunOutcome.preferenceLabel($0)))</th>"
      }.joined() + "</tr>"
    for currency in currencies {
      let sides = against ? [("", mine), (" against", theirs)] : [("", mine)]
      for (suffix, values) in sides {
        html += "<tr><td>\(HTMLText.escape(currency + suffix))</td>"
        html +=
          preferences.map {
            "<td class=\"n\">\(DryRunText.money(values[currency]?[$0] ?? 0))</td>"
          }.joined() + "</tr>"
      }
    }
    return html + "</table>"
  }

  static func table(_ title: String, _ counts: [String: Int], total: Int) -> String {
    var html = "<h2>\(HTMLText.escape(title))</h2><table>"
    let rows = CountTable.sorted(counts)
    for (row, share) in zip(rows, CountTable.shares(rows.map(\.value), of: total)) {
      html +=
        "<tr><td>\(HTMLText.escape(row.label))</td><td class=\"n\">\(DryRunText.n(row.value))</td><td class=\"n\">\(share)</td></tr>"
    }
    return html + "</table>"
  }

  static func breakdown(_ title: String, _ groups: [String: [DryRunOutcome: Int]]) -> String {
    let columns = DryRunOutcome.allCases.filter { outcome in
      groups.values.contains { $0[outcome] != nil }
    }
    var html = "<h2>\(HTMLText.escape(title))</h2><table><tr><th></th>"
    html +=
      columns.map { "<th class=\"n\">\(HTMLText.escape($0.description))</th>" }.joined() + "</tr>"
    for (name, counts) in groups.sorted(by: { $0.key < $1.key }) {
      html +=
        "<tr><td>\(HTMLText.escape(name))</td>"
        + columns.map { "<td class=\"n\">\(DryRunText.n(counts[$0] ?? 0))</td>" }.joined() + "</tr>"
    }
    return html + "</table>"
  }

  /// The policies a report is about, each with its name, version, content hash and a note
  /// (how many decisions it made, or where it was read from).
  static func policyList(
    _ policies: [(name: String, version: String?, sha256: String, note: String)]
  )
    -> String
  {
    var html =
      "<table id=\"policies\"><tr><th>policy</th><th>version</th><th>SHA-256 of its text</th><th></th></tr>"
    for policy in policies {
      html +=
        "<tr class=\"policy\"><td>\(HTMLText.escape(policy.name))</td><td>\(HTMLText.escape(policy.version ?? "—"))</td><td><code class=\"hash\">\(HTMLText.escape(policy.sha256))</code></td><td>\(HTMLText.escape(policy.note))</td></tr>"
    }
    return html + "</table>"
  }

  /// How every page Reckon writes begins, by which `--html` knows a report it may replace.
  public static let pageStart =
    #"<!DOCTYPE html>"# + "\n" + #"<html lang="en"><head><meta charset="utf-8"><title>"#

  static func page(title: String, body: String) -> String {
    pageStart + """
      \(HTMLText.escape(title))</title>
      <style>
      body { font: 15px/1.45 system-ui, sans-serif; margin: 2em auto; max-width: 1100px; color: #1d232b; background: #fff; }
      h1 { font-size: 1.6em; } h2 { font-size: 1.2em; margin-top: 1.6em; }
      table { border-collapse: collapse; margin: .5em 0; } td, th { padding: 3px 10px; border-bottom: 1px solid #dde3ea; text-align: left; }
      .n { text-align: right; font-variant-numeric: tabular-nums; } .totals { font-size: 1.1em; background: #eef3f8; padding: .7em 1em; }
      svg text { font: 13px system-ui, sans-serif; fill: #1d232b; } svg .chart-title { font-weight: 600; font-size: 14px; } svg .small { font-size: 11px; }
      figure { margin: 1em 0; } .key { display: inline-block; width: 12px; height: 12px; margin: 0 4px 0 12px; } .key.a { background: #3b6ea5; } .key.b { background: #d08a2c; }
      .apple-rules { background: #fdecea; border-left: 4px solid #b3261e; padding: .5em 1em; } .apple-rules p { margin: .2em 0; font-weight: 600; }
      .meta { color: #4a5563; } code.hash { font-size: .8em; word-break: break-all; } p.small { font-size: .85em; color: #4a5563; }
      svg.time-chart .axis, svg.time-chart .x-label { font-size: 11px; fill: #4a5563; }
      svg { max-width: 100%; height: auto; }
      @media print {
        body { margin: 0; max-width: none; font-size: 10pt; }
        figure, tr, .totals, .meta { break-inside: avoid; page-break-inside: avoid; }
        h2 { break-after: avoid; page-break-after: avoid; }
      }
      </style></head><body>
      \(body)
      <p class="small">Made by Reckon.</p>
      </body></html>

      """
  }
}
