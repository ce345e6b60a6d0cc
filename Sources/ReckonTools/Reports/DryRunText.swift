import Foundation
import ReckonAppStore
import ReckonEngine
import ReckonPolicy
import ReckonSupport

/// The dry-run summary as text for a terminal: counts by action, preference, rule, reason and
/// product type; with `--against`, what would change and the first changed requests.
public enum DryRunText {
  /// The summary of `result`; `changedShown` changed requests are listed.
  public static func render(
    _ result: DryRunResult, _ summary: DryRunSummary, changedShown: Int = 20
  )
    -> String
  {
    var lines: [String] = []
    let heading = "dry-run of policy \"\(result.policyName)\""
    lines.append(
      result.stopped
        ? "\(heading): stopped after \(stoppedAfter(result))"
        : "\(heading) over \(n(result.total)) \(result.total == 1 ? "request" : "requests")")
    let reviews = result.rows.lazy.filter { $0.store == .googlePlay }.count
    if reviews > 0 {
      lines.append("Google Play reviews among them: \(n(reviews)) (answered in Google's words)")
    }
    // First, as it is a defect of the policy: requests it meant to answer get nothing.
    if let note = appleRulesNote(result, summary) {
      lines.append(note)
      for (violation, count) in appleRulesBroken(summary) {
        lines.append("  \(n(count)): \(violation.inWords)")
      }
    }
    if let count = summary.byOutcome[.skipNotAnswerable], count > 0 {
      lines.append(
        "\(n(count)) \(count == 1 ? "request gets" : "requests get") no reply: Apple takes none "
          + "for family-shared, assigned or Advanced Commerce purchases")
    }
    if let count = summary.byOutcome[.skipGooglePlayRules], count > 0 {
      lines.append(
        "\(n(count)) \(count == 1 ? "review gets" : "reviews get") no reply: the answer breaks "
          + "Google Play's rules (see the rows)")
    }
    if let other = result.otherStore, other > 0 {
      lines.append("\(n(other)) of the other store's requests left out (--store)")
    }
    if result.ignored > 0 { lines.append("\(n(result.ignored)) other notifications ignored") }
    if result.otherApps > 0 {
      lines.append("\(n(result.otherApps)) requests for apps not in reckon.json left out")
    }
    if let unreadable = unreadableNote(result) { lines.append(unreadable) }
    if result.duplicates > 0 {
      lines.append(
        "copies of a notification already read (the same notificationUUID), left out: "
          + n(result.duplicates))
    }
    if result.repeats > 0 {
      lines.append(
        "repeats of a request still open (serve answers them by its decision), left out: "
          + n(result.repeats))
    }
    if summary.undecided > 0 {
      // Why, as the rows say it: the text format has no rows to look in.
      var why: [String: Int] = [:]
      for row in result.rows where row.verdict == nil { why[row.problem ?? "", default: 0] += 1 }
      lines.append("\(n(summary.undecided)) requests not decided:")
      for (problem, count) in CountTable.sorted(why).prefix(3) {
        lines.append("  \(n(count)): \(TerminalSafeText.shown(problem, oneLine: true))")
      }
      if why.count > 3 { lines.append("  … and \(why.count - 3) other problems (see the rows)") }
    }
    if summary.withoutFacts > 0 {
      lines.append(
        "no facts found for \(n(summary.withoutFacts)) requests (their transactions are in no "
          + "fact source): they are decided on the notification alone")
    }
    lines.append("")
    let preferences = Dictionary(
      uniqueKeysWithValues: summary.byPreference.map {
        (DryRunOutcome.preferenceLabel($0.key), $0.value)
      })
    // One width for the three count tables, so their numbers line up.
    let names = TextColumn(
      [summary.byAction, preferences, summary.byRule].flatMap(\.keys), minimum: 40,
      maximum: 60)
    section(&lines, "By action", summary.byAction, total: summary.decided, names)
    // Shares of the answers that carry a preference (or none): skips have none to count.
    section(
      &lines, "By preference (respond and hold)", preferences,
      total: preferences.values.reduce(0, +), names)
    section(
      &lines, "By deciding rule", summary.byRule, total: summary.decided, names,
      order: ruleOrder(result))
    purchaseValue(&lines, summary)
    let groups = TextColumn(
      [summary.byReason, summary.byProductType].flatMap(\.keys), minimum: 26, maximum: 40)
    breakdown(&lines, "By reason", summary.byReason, groups)
    breakdown(&lines, "By product type", summary.byProductType, groups)
    if result.againstName != nil { comparison(&lines, result, summary, shown: changedShown) }
    return TerminalSafeText.shown(lines.joined(separator: "\n"))
  }

  /// How many requests would get no reply because the body breaks Apple's rules, and the rules
  /// that decided them, e.g. `337 requests would get no reply: the body breaks Apple's rules
  /// (rule 'prorate everything')`; nil when none would.
  public static func appleRulesNote(_ result: DryRunResult, _ summary: DryRunSummary) -> String? {
    let total = summary.breaksAppleRules.values.reduce(0, +)
    guard total > 0 else { return nil }
    let order = ruleOrder(result)
    let rules = summary.breaksAppleRules.sorted {
      $0.value > $1.value || $0.value == $1.value && order($0.key) < order($1.key)
    }
    let names = rules.map { name, count in
      (name == "otherwise" ? "otherwise" : "rule '\(name)'")
        + (rules.count > 1 ? " \(n(count))" : "")
    }
    return "\(n(total)) \(total == 1 ? "request" : "requests") would get no reply: the body breaks "
      + "Apple's rules (\(names.joined(separator: ", ")))"
  }

  /// The Apple rules the skipped bodies break, most often broken first.
  static func appleRulesBroken(_ summary: DryRunSummary) -> [(AppleRuleViolation, Int)] {
    summary.breaksAppleRule.sorted {
      $0.value > $1.value
        || $0.value == $1.value
          && AppleRuleViolation.allCases.firstIndex(of: $0.key)!
            < AppleRuleViolation.allCases.firstIndex(of: $1.key)!
    }.map { ($0.key, $0.value) }
  }

  /// A rule name's place in the policy, `otherwise` (and an unknown name) last.
  static func ruleOrder(_ result: DryRunResult) -> (String) -> Int {
    let positions = Dictionary(
      result.ruleNames.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
    return { positions[$0] ?? result.ruleNames.count }
  }

  /// How many lines `--skip-bad-lines` left out, with the problems of the first `examples` by
  /// line number; nil when none were.
  public static func unreadableNote(_ result: DryRunResult, examples: Int = 3) -> String? {
    let unreadable = result.unreadable
    guard unreadable.count > 0 else { return nil }
    var shown = unreadable.first.prefix(examples).map(\.description)
    if unreadable.count > shown.count { shown.append("…") }
    return "unreadable lines left out: \(n(unreadable.count)) (\(shown.joined(separator: "; ")))"
  }

  /// A warning when the run decided nothing, saying why, so an empty or wrong `source` (named
  /// as given) is not mistaken for a run that went well; nil when something was decided or the
  /// run was stopped.
  public static func nothingDecided(_ result: DryRunResult, source: String) -> String? {
    guard result.rows.isEmpty, !result.stopped else { return nil }
    var found: [String] = []
    if result.ignored > 0 { found.append("\(n(result.ignored)) other notifications") }
    if result.otherApps > 0 {
      found.append("\(n(result.otherApps)) requests for apps not in reckon.json")
    }
    if result.unreadable.count > 0 {
      found.append("\(n(result.unreadable.count)) unreadable lines")
    }
    if let other = result.otherStore, other > 0 {
      found.append("\(n(other)) of the other store's requests, left out by --store")
    }
    let why =
      found.isEmpty
      ? "\(source) holds no CONSUMPTION_REQUEST"
      : "\(source) holds no CONSUMPTION_REQUEST to decide, only "
        + found.joined(separator: " and ")
    return "warning: nothing was decided: \(why)"
  }

  private static func comparison(
    _ lines: inout [String], _ result: DryRunResult, _ summary: DryRunSummary, shown: Int
  ) {
    let share = summary.decided == 0 ? 0 : 100 * Double(summary.changed) / Double(summary.decided)
    lines.append(
      "Against \"\(result.againstName ?? "")\": \(n(summary.changed)) of \(n(summary.decided)) answers change (\(String(format: "%.1f", share))%)"
    )
    for (transition, count) in summary.transitions.sorted(by: {
      $0.value > $1.value || $0.value == $1.value && $0.key < $1.key
    }) {
      let to =
        transition.from == transition.to ? "\(transition.to) (body differs)" : "\(transition.to)"
      lines.append("  \(pad(n(count), 10))  \(transition.from) → \(to)")
    }
    lines.append("")
    lines.append("  answer                          this policy    against    change")
    for outcome in DryRunOutcome.allCases {
      let mine = summary.byOutcome[outcome] ?? 0
      let theirs = summary.againstByOutcome[outcome] ?? 0
      guard mine + theirs > 0 else { continue }
      let delta = theirs - mine
      lines.append(
        "  \(outcome.description.padding(toLength: 30, withPad: " ", startingAt: 0))  \(pad(n(mine), 11))  \(pad(n(theirs), 9))  \(pad((delta > 0 ? "+" : "") + n(delta), 8))"
      )
    }
    valueComparison(&lines, summary)
    let changed = result.rows.lazy.filter(\.changed).prefix(shown)
    guard !changed.isEmpty else { return }
    lines.append("")
    lines.append("First changed requests:")
    for row in changed {
      guard let verdict = row.verdict, let against = row.against else { continue }
      lines.append(
        "  \(TerminalSafeText.shown(row.transactionId, oneLine: true))  \(verdict.outcome) [\(result.ruleName(verdict.ruleIndex))] → \(against.outcome) [\(result.againstRuleName(against.ruleIndex))]"
      )
    }
  }

  /// What the purchases the answers are about cost, per currency, by preference: the money a
  /// product owner weighs, which the counts alone do not show.
  private static func purchaseValue(_ lines: inout [String], _ summary: DryRunSummary) {
    let byCurrency = summary.purchaseValueByPreference
    guard !byCurrency.isEmpty else { return }
    lines.append("Purchase value by preference (what the customers paid)")
    let totals = byCurrency.mapValues { $0.values.reduce(0) { $0.addingSaturated($1) } }
    for (currency, byPreference) in byCurrency.sorted(by: {
      totals[$0.key]! > totals[$1.key]! || totals[$0.key]! == totals[$1.key]! && $0.key < $1.key
    }) {
      // One order on every line, so the currencies read down the same way.
      let parts = DryRunSummary.valuePreferences.compactMap {
        preference in
        byPreference[preference].map { "\(DryRunOutcome.preferenceLabel(preference)) \(money($0))" }
      }
      lines.append(
        "  \(TerminalSafeText.shown(currency, oneLine: true)) \(pad(money(totals[currency]!), 16)) in all: "
          + parts.joined(separator: ", "))
    }
    lines.append("")
  }

  /// With `--against`: per currency, the value each refund preference would go to under each
  /// policy.
  private static func valueComparison(_ lines: inout [String], _ summary: DryRunSummary) {
    let mine = summary.purchaseValueByPreference
    let theirs = summary.againstPurchaseValueByPreference
    let currencies = Set(mine.keys).union(theirs.keys).sorted()
    guard !currencies.isEmpty else { return }
    lines.append("")
    lines.append("  purchase value                  this policy      against       change")
    for currency in currencies {
      // Every answer, so each currency's changes add up to zero as the HTML table's do.
      for preference in DryRunSummary.valuePreferences {
        let this = mine[currency]?[preference] ?? 0
        let other = theirs[currency]?[preference] ?? 0
        guard this != 0 || other != 0 else { continue }
        let delta = other.addingSaturated(this == .min ? .max : -this)
        let label =
          "\(TerminalSafeText.shown(currency, oneLine: true)) \(preference == "none" ? "share data only" : preference)"
        lines.append(
          "  \(label.padding(toLength: 30, withPad: " ", startingAt: 0))  \(pad(money(this), 11))  \(pad(money(other), 11))  \(pad((delta > 0 ? "+" : "") + money(delta), 11))"
        )
      }
    }
  }

  /// An amount in milliunits with thousands separators and two decimals (three when the third
  /// is not 0), e.g. `12,345.67`.
  /// `grouped: false` leaves the separators out, for CSV.
  public static func money(_ milli: Int, grouped: Bool = true) -> String {
    let plain = Value.formatMoney(Int64(milli))
    guard grouped, let point = plain.firstIndex(of: ".") else { return plain }
    let negative = plain.hasPrefix("-")
    let whole = plain[plain.index(plain.startIndex, offsetBy: negative ? 1 : 0)..<point]
    return (negative ? "-" : "") + n(Int(whole) ?? 0) + plain[point...]
  }

  /// How far a stopped run got: `304 of 2,000 requests`, or for a requests file, whose unread
  /// lines may not all be requests, `304 of at most 3,696 requests (608 of 4,000 lines read)`.
  public static func stoppedAfter(_ result: DryRunResult) -> String {
    guard let read = result.linesRead, let lines = result.lines else {
      return "\(n(result.rows.count)) of \(n(result.total)) requests"
    }
    return "\(n(result.rows.count)) of at most \(n(result.total)) requests "
      + "(\(n(read)) of \(n(lines)) lines read)"
  }

  /// A table of counts, most first (equal counts by `order`), with their shares of `total`.
  private static func section(
    _ lines: inout [String], _ title: String, _ counts: [String: Int], total: Int,
    _ column: TextColumn, order: (String) -> Int = { _ in 0 }
  ) {
    guard !counts.isEmpty else { return }
    lines.append(title)
    let rows = CountTable.sorted(counts, order: order)
    for (row, share) in zip(rows, CountTable.shares(rows.map(\.value), of: total)) {
      lines.append("  \(column.cell(row.label)) \(pad(n(row.value), 10))  \(share)")
    }
    lines.append("")
  }

  private static func breakdown(
    _ lines: inout [String], _ title: String, _ groups: [String: [DryRunOutcome: Int]],
    _ column: TextColumn
  ) {
    guard !groups.isEmpty else { return }
    lines.append(title)
    for (name, outcomes) in groups.sorted(by: { $0.key < $1.key }) {
      let total = outcomes.values.reduce(0, +)
      let parts = outcomes.sorted { $0.value > $1.value || $0.value == $1.value && $0.key < $1.key }
        .map { "\($0.key) \(n($0.value))" }
      lines.append(
        "  \(column.cell(name)) \(pad(n(total), 10)): \(parts.joined(separator: ", "))"
      )
    }
    lines.append("")
  }

  /// A count with thousands separators, as every report and summary prints counts.
  public static func n(_ value: Int) -> String { GroupedNumber.text(value) }

  private static func pad(_ text: String, _ width: Int) -> String {
    String(repeating: " ", count: max(0, width - text.count)) + text
  }
}
