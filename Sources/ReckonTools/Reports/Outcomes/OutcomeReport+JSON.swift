import Foundation

extension OutcomeReport {
  /// The report as JSON: the headline counts, the groups, the window and the deciding
  /// policies, and with `--by` the same counts and groups for each period. Money is in
  /// milliunits of its currency, as Apple gives prices.
  public func json() -> String {
    var members = [
      "\"all\":\(Self.object(all))", "\"importedHistory\":\(Self.object(importedHistory))",
      Self.groups(whole),
    ]
    let zone = period ?? ReportPeriod(.day)
    func date(_ date: Date?) -> String { date.map { "\"\(zone.timestamp($0))\"" } ?? "null" }
    members.append(
      "\"range\":{\"since\":\(date(since)),\"until\":\(date(until)),\"first\":\(date(first)),\"last\":\(date(last))}"
    )
    members.append(
      "\"policies\":["
        + policies.map {
          "{\"name\":\(DryRunRows.quote($0.name)),\"version\":\($0.version.map(DryRunRows.quote) ?? "null"),\"sha256\":\(DryRunRows.quote($0.sha256)),\"decisions\":\($0.decisions)}"
        }.joined(separator: ",") + "]")
    if let period {
      members.append("\"by\":\"\(period.unit.rawValue)\"")
      members.append("\"timeZone\":\(DryRunRows.quote(period.zoneName))")
      members.append(
        "\"periods\":["
          + periods.map { row in
            "{\"label\":\"\(row.label)\",\"partial\":\(row.isPartial),\"start\":\(date(row.interval.start)),\"end\":\(date(row.interval.end)),\"all\":\(Self.object(row.sections.all)),\"importedHistory\":\(Self.object(row.sections.importedHistory)),\(Self.groups(row.sections))}"
          }.joined(separator: ",") + "]")
    }
    return "{" + members.joined(separator: ",") + "}\n"
  }

  /// The groups of `sections`, by their stored names.
  private static func groups(_ sections: OutcomeSections) -> String {
    sections.sections.map { section in
      "\(DryRunRows.quote(section.key)):{"
        + section.groups.sorted { $0.key < $1.key }.map {
          "\(DryRunRows.quote($0.key)):\(object($0.value))"
        }.joined(separator: ",") + "}"
    }.joined(separator: ",")
  }

  /// One group's counts, rates and money.
  static func object(_ counts: Counts) -> String {
    let money = counts.money.sorted { $0.key < $1.key }.map {
      "\(DryRunRows.quote($0.key)):{\"requests\":\($0.value.requests),\"atStakeMilliunits\":\($0.value.atStake),\"keptMilliunits\":\($0.value.kept)}"
    }.joined(separator: ",")
    return
      "{\"decisions\":\(counts.decisions),\"withOutcome\":\(counts.withOutcome),\"refunded\":\(counts.refunded),\"declined\":\(counts.declined),\"reversed\":\(counts.reversed),\"prorated\":\(counts.prorated),\"seatsRefunded\":\(counts.seatsRefunded),\"noOutcomeYet\":\(counts.noOutcomeYet),\"averageProratedPercentage\":\(counts.averageProratedPercentage.map { String(format: "%.2f", $0) } ?? "null"),\"refundRate\":\(number(counts.refundRate)),\"netRefundRate\":\(number(counts.netRefundRate)),\"googlePlay\":{\"reviews\":\(counts.googlePlayReviews),\"voided\":\(counts.googlePlayVoided),\"voidedRate\":\(number(counts.googlePlayVoidedRate))},\"money\":{\(money)},\"unpriced\":\(counts.unpriced)}"
  }
}
