import Foundation
import ReckonAppStore
import ReckonEngine
import ReckonGooglePlay
import ReckonState
import ReckonSupport

/// Whether Apple followed our preferences: for decisions whose outcome arrived, the refund rate
/// by the preference sent, by deciding rule, by the customer's reason and by product type.
public struct OutcomeReport: Sendable {
  /// What happened to one group of decisions.
  public struct Counts: Hashable, Sendable {
    /// Decisions in the group.
    public var decisions = 0
    /// Of those, how many have an outcome (refunded or declined).
    public var withOutcome = 0
    /// Refunded (REFUND), whether or not reversed later.
    public var refunded = 0
    /// Of the refunds, how many were prorated (revocationType REFUND_PRORATED).
    public var prorated = 0
    /// Sum of the prorated refunds' revocationPercentage, in milliunits.
    public var proratedMilliunits = 0
    /// Of the prorated refunds, how many carried a revocationPercentage.
    public var proratedMeasured = 0
    /// Declined (REFUND_DECLINED).
    public var declined = 0
    /// Refunds reversed later (REFUND_REVERSED).
    public var reversed = 0
    /// Refunds of some seats of a multiseat purchase (REFUND with subtype SEATS): an outcome,
    /// neither refunded nor declined, since the transaction stays valid.
    public var seatsRefunded = 0

    /// These counts and `other`'s together.
    func adding(_ other: Counts) -> Counts {
      var sum = self
      sum.decisions += other.decisions
      sum.withOutcome += other.withOutcome
      sum.refunded += other.refunded
      sum.prorated += other.prorated
      sum.proratedMilliunits += other.proratedMilliunits
      sum.proratedMeasured += other.proratedMeasured
      sum.declined += other.declined
      sum.reversed += other.reversed
      sum.seatsRefunded += other.seatsRefunded
      return sum
    }

    /// Refunded share of the decisions with an outcome, 0...1, counting a refund Apple reversed
    /// later as refunded (what Apple decided on our answer); nil when no outcome has arrived.
    public var refundRate: Double? {
      withOutcome == 0 ? nil : Double(refunded) / Double(withOutcome)
    }

    /// As `refundRate`, without the refunds Apple reversed later (the money that stayed
    /// refunded); nil when no outcome has arrived.
    public var netRefundRate: Double? {
      withOutcome == 0 ? nil : Double(refunded - reversed) / Double(withOutcome)
    }

    /// The average share of the price the prorated refunds gave back, in percent; nil when no
    /// prorated refund carried a revocationPercentage.
    public var averageProratedPercentage: Double? {
      // A prorated refund without a percentage is left out rather than counted as 0%.
      proratedMeasured == 0 ? nil : Double(proratedMilliunits) / Double(proratedMeasured) / 1_000
    }

    mutating func add(_ decision: DecidedOutcome) {
      decisions += 1
      let refund = decision.outcomes.contains(.refund)
      let declined = decision.outcomes.contains(.refundDeclined)
      let seats = decision.outcomes.contains(.seatsRefunded)
      guard refund || declined || seats else { return }
      withOutcome += 1
      guard refund || declined else {
        seatsRefunded += 1
        return
      }
      if refund {
        refunded += 1
        if decision.revocationType == "REFUND_PRORATED" {
          prorated += 1
          if let percentage = decision.revocationPercentage {
            proratedMilliunits += percentage
            proratedMeasured += 1
          }
        }
        if decision.outcomes.contains(.refundReversed) { reversed += 1 }
      } else {
        self.declined += 1
      }
    }
  }

  /// Every decision in the range: Reckon's own, so the headline says how Apple followed them.
  public private(set) var all = Counts()
  /// The requests imported from Apple's history and never decided by Reckon, apart from `all`:
  /// months of what Apple decided before Reckon would otherwise swamp the headline.
  public private(set) var importedHistory = Counts()
  /// By the refund preference in the body Apple received (`none` for data only, which text and
  /// HTML call `no preference (share data only)`); decisions
  /// that sent nothing are grouped by why (`not sent (skip)`, `notSent`, `notSentYet`).
  public private(set) var byPreference: [String: Counts] = [:]
  /// By deciding rule (`policy: rule`).
  public private(set) var byRule: [String: Counts] = [:]
  /// By the customer's reason.
  public private(set) var byReason: [String: Counts] = [:]
  /// By product type.
  public private(set) var byProductType: [String: Counts] = [:]

  /// The report over `decisions`.
  public init(_ decisions: [DecidedOutcome]) {
    for decision in decisions {
      if decision.action == DecidedOutcome.imported {
        importedHistory.add(decision)
      } else {
        all.add(decision)
      }
      byPreference[Self.preference(decision), default: Counts()].add(decision)
      let rule =
        decision.action == DecidedOutcome.imported
        ? Self.importedHistory : "\(decision.policyName): \(decision.rule)"
      byRule[rule, default: Counts()].add(decision)
      let request = try? StoredRequestDecoder.request(
        decision.rawNotification, receivedAt: decision.receivedAt, id: 0)
      // A Google Play review is recorded as Google wrote it: its reason is Google's, and it
      // names no product type.
      let review = request == nil ? Self.review(decision.rawNotification) : nil
      let reason =
        request?.notification.data?.rawConsumptionRequestReason
        ?? review.map { $0.refundReason?.name ?? "none" } ?? "none"
      byReason[reason, default: Counts()].add(decision)
      let productType =
        request?.transaction.type?.policyName ?? (review != nil ? "Google Play" : "unknown")
      byProductType[productType, default: Counts()].add(decision)
    }
  }

  /// The Google Play review recorded as `raw`, if it is one.
  private static func review(_ raw: Data) -> PendingRefundReviewNotification? {
    guard let notification = try? DeveloperNotification(data: raw),
      case .pendingRefundReview(let review) = notification.kind
    else { return nil }
    return review
  }

  /// The group of requests imported from Apple's history and never decided by Reckon: what
  /// Apple decided before Reckon answered, by reason and product type too.
  public static let importedHistory = "imported history (not answered by Reckon)"
  /// The group of decisions queued but never delivered: Apple decided without our answer.
  public static let notSent = "not sent (expired, failed or dropped)"
  /// The group of decisions still waiting in the outbox when the report was made.
  public static let notSentYet = "not sent yet (held, pending or sending)"

  private static func preference(_ decision: DecidedOutcome) -> String {
    guard decision.action != DecidedOutcome.imported else { return importedHistory }
    guard decision.action != "skip" else { return "not sent (skip)" }
    switch decision.outboxState {
    case "sent"?:
      // The body as sent, not as decided: `reckon queue set` may have changed the preference.
      guard let body = decision.sentBody, let object = (try? JSONValue.parse(body))?.objectValue
      else { return "none" }
      return object["refundPreference"]?.stringValue ?? "none"
    case "expired"?, "failed"?, "dropped"?: return notSent
    case nil: return "not sent (never queued)"
    default: return notSentYet
    }
  }

  /// The report as text tables.
  public func text() -> String {
    var lines = [
      "\(DryRunText.n(all.decisions)) decisions, \(DryRunText.n(all.withOutcome)) with an outcome, refund rate \(Self.rate(all.refundRate))"
        + " (reversed refunds counted as refunded), net refund rate \(Self.rate(all.netRefundRate))"
        + " (reversed refunds left out)",
      "prorated refunds: \(DryRunText.n(all.prorated)), giving back \(Self.averageProrated(all)) of the price on average",
    ]
    if importedHistory.decisions > 0 {
      lines.append(
        "imported history (not answered by Reckon, not in the totals above): "
          + "\(DryRunText.n(importedHistory.decisions)) requests, "
          + "\(DryRunText.n(importedHistory.withOutcome)) with an outcome, refund rate "
          + Self.rate(importedHistory.refundRate))
    }
    lines.append("")
    // One width for every section, so their numbers line up.
    let names = TextColumn(labelledSections.flatMap(\.1.keys), minimum: 44, maximum: 60)
    for (title, groups) in labelledSections {
      lines.append(title)
      lines.append(
        "  " + names.cell("") + " "
          + "decisions  outcome  refunded  declined  reversed  prorated  seats  avg prorated    rate  net rate"
      )
      for (name, counts) in groups.sorted(by: { $0.key < $1.key }) {
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
            + "  " + Self.pad(Self.rate(counts.netRefundRate), 8)
        )
      }
      lines.append("")
    }
    return TerminalSafeText.shown(lines.joined(separator: "\n"))
  }

  /// The report as JSON.
  public func json() -> String {
    func object(_ counts: Counts) -> String {
      "{\"decisions\":\(counts.decisions),\"withOutcome\":\(counts.withOutcome),\"refunded\":\(counts.refunded),\"declined\":\(counts.declined),\"reversed\":\(counts.reversed),\"prorated\":\(counts.prorated),\"seatsRefunded\":\(counts.seatsRefunded),\"averageProratedPercentage\":\(counts.averageProratedPercentage.map { String(format: "%.2f", $0) } ?? "null"),\"refundRate\":\(Self.number(counts.refundRate)),\"netRefundRate\":\(Self.number(counts.netRefundRate))}"
    }
    let groups = sections.map { title, groups in
      "\(DryRunRows.quote(Self.key(title))):{"
        + groups.sorted { $0.key < $1.key }.map {
          "\(DryRunRows.quote($0.key)):\(object($0.value))"
        }.joined(separator: ",") + "}"
    }
    // Always there, zeros when nothing was imported, so the JSON has one shape.
    return
      "{\"all\":\(object(all)),\"importedHistory\":\(object(importedHistory)),\(groups.joined(separator: ","))}\n"
  }

  /// The report as a self-contained HTML page.
  public func html() -> String {
    var body =
      "<h1>Refund outcomes</h1><p class=\"totals\">Decisions: <b id=\"decisions\">\(DryRunText.n(all.decisions))</b> · with an outcome <b id=\"with-outcome\">\(DryRunText.n(all.withOutcome))</b> · refund rate <b id=\"rate\">\(Self.rate(all.refundRate))</b> (reversed refunds counted as refunded) · net refund rate <b id=\"net-rate\">\(Self.rate(all.netRefundRate))</b> (reversed refunds left out) · prorated refunds <b id=\"prorated\">\(DryRunText.n(all.prorated))</b>, giving back <b id=\"average-prorated\">\(Self.averageProrated(all))</b> of the price on average</p>"
    if importedHistory.decisions > 0 {
      body +=
        "<p class=\"totals\">Imported history (not answered by Reckon, not in the totals above): <b id=\"imported\">\(DryRunText.n(importedHistory.decisions))</b> requests · with an outcome <b id=\"imported-with-outcome\">\(DryRunText.n(importedHistory.withOutcome))</b> · refund rate <b id=\"imported-rate\">\(Self.rate(importedHistory.refundRate))</b></p>"
    }
    for (title, groups) in labelledSections {
      // A group with no outcome yet has no rate; a 0% bar would say Apple refunded none.
      let bars = groups.sorted { $0.key < $1.key }.compactMap { name, counts in
        counts.refundRate.map { (name, Int(($0 * 100).rounded())) }
      }
      body +=
        "<h2>\(HTMLText.escape(title))</h2><figure>\(SVGBarChart(title: "Refund rate (%) \(title.lowercased())", bars: bars).render())</figure>"
      body +=
        "<table><tr><th></th><th class=\"n\">decisions</th><th class=\"n\">with outcome</th><th class=\"n\">refunded</th><th class=\"n\">declined</th><th class=\"n\">reversed</th><th class=\"n\">prorated</th><th class=\"n\">seats refunded</th><th class=\"n\">avg prorated</th><th class=\"n\">rate</th><th class=\"n\">net rate</th></tr>"
      for (name, counts) in groups.sorted(by: { $0.key < $1.key }) {
        body +=
          "<tr><td>\(HTMLText.escape(name))</td>"
          + [
            counts.decisions, counts.withOutcome, counts.refunded, counts.declined, counts.reversed,
            counts.prorated, counts.seatsRefunded,
          ].map { "<td class=\"n\">\(DryRunText.n($0))</td>" }.joined()
          + "<td class=\"n\">\(Self.averageProrated(counts))</td><td class=\"n\">\(Self.rate(counts.refundRate))</td><td class=\"n\">\(Self.rate(counts.netRefundRate))</td></tr>"
      }
      body += "</table>"
    }
    return HTMLReport.page(title: "Reckon refund outcomes", body: body)
  }

  private var sections: [(String, [String: Counts])] {
    [
      ("By preference sent", byPreference), ("By deciding rule", byRule), ("By reason", byReason),
      ("By product type", byProductType),
    ]
  }

  /// The sections as people read them: preferences in the policy language's words.
  private var labelledSections: [(String, [String: Counts])] {
    sections.map { title, groups in
      guard title == "By preference sent" else { return (title, groups) }
      return (
        title,
        // A stored preference may already read as a label (a hand-edited database): merged,
        // not a crash on the duplicate key.
        Dictionary(
          groups.map { (DryRunOutcome.preferenceLabel($0.key), $0.value) },
          uniquingKeysWith: { $0.adding($1) })
      )
    }
  }

  private static func key(_ title: String) -> String {
    [
      "By preference sent": "byPreference", "By deciding rule": "byRule", "By reason": "byReason",
      "By product type": "byProductType",
    ][title] ?? title
  }

  static func averageProrated(_ counts: Counts) -> String {
    counts.averageProratedPercentage.map { String(format: "%.1f%%", $0) } ?? "—"
  }

  private static func pad(_ text: String, _ width: Int) -> String {
    String(repeating: " ", count: max(0, width - text.count)) + text
  }

  static func rate(_ rate: Double?) -> String {
    rate.map { String(format: "%.1f%%", $0 * 100) } ?? "—"
  }

  private static func number(_ rate: Double?) -> String {
    rate.map { String(format: "%.4f", $0) } ?? "null"
  }
}
