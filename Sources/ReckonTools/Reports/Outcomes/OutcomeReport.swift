import Foundation
import ReckonState

/// Whether the stores followed our preferences: for decisions whose outcome arrived, the refund
/// rate and the money kept by the preference sent, by deciding rule, by the customer's reason
/// and by product type; with a `ReportPeriod`, the same for each day, week or month.
public struct OutcomeReport: Sendable {
  /// One period of a report over time, with its tables.
  public struct Period: Hashable, Sendable {
    /// When it starts (inclusive) and ends (exclusive): the part of it inside the window asked
    /// for, when the window starts or ends inside it.
    public internal(set) var interval: DateInterval
    /// How it is written: `2026-12-07`, `2026-W49`, `2026-12`.
    public let label: String
    /// Its tables; all zeros when no request came in it.
    public internal(set) var sections = OutcomeSections()
    /// Whether the window leaves part of the period out, so its counts are of that part only.
    public internal(set) var isPartial = false

    /// The label as the text and HTML reports show it, `2026-W45 (part)` when partial.
    public var shownLabel: String { isPartial ? label + " (part)" : label }

    /// The period cut to the window `since..<until`.
    func clipped(since: Date?, until: Date?) -> Period {
      let start = max(interval.start, since ?? interval.start)
      let end = min(interval.end, until ?? interval.end)
      guard start < end, start != interval.start || end != interval.end else { return self }
      var clipped = self
      clipped.interval = DateInterval(start: start, end: end)
      clipped.isPartial = true
      return clipped
    }
  }

  /// A policy that made some of the decisions, as recorded with them.
  public struct Policy: Hashable, Sendable {
    /// The policy's name.
    public let name: String
    /// Its version header, if it has one.
    public let version: String?
    /// SHA-256 of its text (hex).
    public let sha256: String
    /// How many of the report's decisions it made.
    public internal(set) var decisions = 0
  }

  /// The tables over the whole range.
  public private(set) var whole = OutcomeSections()
  /// How the report groups requests over time; nil for no periods.
  public let period: ReportPeriod?
  /// The periods from the window's start (or the first request's) to its end (or the last
  /// request's), in order, with none left out.
  public private(set) var periods: [Period] = []
  /// The window asked for: requests received at or after `since` and before `until`.
  public let since: Date?
  /// The window's end (exclusive).
  public let until: Date?
  /// When the first and last requests reported were received; nil when there are none.
  public private(set) var first: Date?
  /// When the last request reported was received.
  public private(set) var last: Date?
  /// The policies that decided the requests (name, version, hash), the most decisions first.
  public private(set) var policies: [Policy] = []

  /// Every decision in the range: Reckon's own, so the headline says how Apple followed them.
  public var all: Counts { whole.all }
  /// The requests imported from Apple's history and never decided by Reckon, apart from `all`:
  /// months of what Apple decided before Reckon would otherwise swamp the headline.
  public var importedHistory: Counts { whole.importedHistory }
  /// By the refund preference in the body Apple received (`none` for data only, which text and
  /// HTML call `no preference (share data only)`); decisions that sent nothing are grouped by
  /// why (`not sent (skip)`, `notSent`, `notSentYet`).
  public var byPreference: [String: Counts] { whole.byPreference }
  /// By deciding rule (`policy: rule`).
  public var byRule: [String: Counts] { whole.byRule }
  /// By the customer's reason.
  public var byReason: [String: Counts] { whole.byReason }
  /// By product type.
  public var byProductType: [String: Counts] { whole.byProductType }

  /// The report over `decisions` received in `since..<until`, by `period` when given.
  public init(
    _ decisions: [DecidedOutcome], by period: ReportPeriod? = nil, since: Date? = nil,
    until: Date? = nil
  ) {
    self.init(by: period, since: since, until: until) { count in decisions.forEach(count) }
  }

  /// The report over the decisions `read` hands over one by one (as
  /// `StateStore.forEachDecidedOutcome` does), none of them kept once counted.
  public init(
    by period: ReportPeriod? = nil, since: Date? = nil, until: Date? = nil,
    reading read: ((DecidedOutcome) -> Void) throws -> Void
  ) rethrows {
    self.period = period
    self.since = since
    self.until = until
    var tally = Tally(period)
    try read { tally.add($0) }
    tally.finish()
    whole = tally.whole
    first = tally.first
    last = tally.last
    policies = tally.policies.policies
    guard let period else { return }
    periods = Self.periods(period, from: since ?? first, to: until, last: last).map { empty in
      var filled = empty
      filled.sections = tally.byPeriod[empty.interval.start] ?? OutcomeSections()
      return filled.clipped(since: since, until: until)
    }
  }

  /// What the report counts as the decisions come: the whole range, and each period's tables
  /// by its start. Decisions come oldest first, so the period at hand is kept apart and the
  /// calendar asked again only when one falls outside it.
  private struct Tally {
    let period: ReportPeriod?
    var whole = OutcomeSections()
    var byPeriod: [Date: OutcomeSections] = [:]
    var current: (interval: DateInterval, sections: OutcomeSections)?
    var first: Date?
    var last: Date?
    var policies = PolicyTally()
    var ruleKeys = RuleKeys()

    init(_ period: ReportPeriod?) { self.period = period }

    mutating func add(_ decision: DecidedOutcome) {
      let request = ReportedRequest(decision, rules: &ruleKeys)
      first = min(first ?? request.receivedAt, request.receivedAt)
      last = max(last ?? request.receivedAt, request.receivedAt)
      whole.add(request)
      if decision.action != DecidedOutcome.imported { policies.add(decision) }
      guard let period else { return }
      if let at = current?.interval, at.start <= request.receivedAt, request.receivedAt < at.end {
        current?.sections.add(request)
        return
      }
      finish()
      let interval = period.interval(containing: request.receivedAt)
      var sections = byPeriod.removeValue(forKey: interval.start) ?? OutcomeSections()
      sections.add(request)
      current = (interval, sections)
    }

    /// Puts the period at hand with the others.
    mutating func finish() {
      guard let current else { return }
      byPeriod[current.interval.start] = current.sections
      self.current = nil
    }
  }

  /// The periods from the one holding `start` to the one before `until` (exclusive), or to the
  /// one holding `last`.
  private static func periods(
    _ period: ReportPeriod, from start: Date?, to until: Date?, last: Date?
  )
    -> [Period]
  {
    guard let start, let end = until.map({ $0.addingTimeInterval(-0.001) }) ?? last, start <= end
    else { return [] }
    return period.intervals(from: start, through: end).map {
      Period(interval: $0, label: period.label($0.start))
    }
  }

  /// The group of requests imported from Apple's history and never decided by Reckon: what
  /// Apple decided before Reckon answered, by reason and product type too.
  public static let importedHistory = "imported history (not answered by Reckon)"
  /// The group of decisions queued but never delivered: Apple decided without our answer.
  public static let notSent = "not sent (expired, failed or dropped)"
  /// The group of decisions still waiting in the outbox when the report was made.
  public static let notSentYet = "not sent yet (held, pending or sending)"
}

/// The policies that made a report's decisions, counted as they come.
private struct PolicyTally {
  private var index: [OutcomeReport.Policy: Int] = [:]
  private var found: [OutcomeReport.Policy] = []
  private var last = -1

  mutating func add(_ decision: DecidedOutcome) {
    // Most decisions in a row share a policy: compared with the last before hashing.
    if last >= 0, found[last].sha256 == (decision.policySHA256 ?? ""),
      found[last].name == decision.policyName, found[last].version == decision.policyVersion
    {
      found[last].decisions += 1
      return
    }
    let key = OutcomeReport.Policy(
      name: decision.policyName, version: decision.policyVersion,
      sha256: decision.policySHA256 ?? "")
    if let at = index[key] {
      last = at
    } else {
      index[key] = found.count
      found.append(key)
      last = found.count - 1
    }
    found[last].decisions += 1
  }

  var policies: [OutcomeReport.Policy] {
    found.sorted { ($1.decisions, $0.name) < ($0.decisions, $1.name) }
  }
}
