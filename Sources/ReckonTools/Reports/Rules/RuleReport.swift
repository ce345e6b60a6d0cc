import Foundation
import ReckonState

/// Each rule of the live policies, how often it decided in the window, what the store did after
/// it (refund rate, declines, no outcome yet) and the money at stake: the table a product owner
/// reads before changing a rule. Rules that never decided are listed with zeros (dead rules);
/// rules recorded in the state but in none of the policies are listed apart.
public struct RuleReport: Sendable {
  /// A policy as the report lists it: its identity and its rules in order.
  public struct Source: Sendable {
    /// The policy's name, as decisions record it.
    public let name: String
    /// Its version header.
    public let version: String?
    /// SHA-256 of its text (hex), as decisions record it.
    public let sha256: String
    /// Where it was read from.
    public let path: String
    /// Its rules' names in order; `otherwise` follows them.
    public let rules: [String]

    /// A policy from its parts.
    public init(name: String, version: String?, sha256: String, path: String, rules: [String]) {
      self.name = name
      self.version = version
      self.sha256 = sha256
      self.path = path
      self.rules = rules
    }
  }

  /// One rule's line.
  public struct Rule: Hashable, Sendable {
    /// The policy's name.
    public let policy: String
    /// The rule's name (`otherwise` for the policy's fallback).
    public let name: String
    /// What happened after its decisions.
    public internal(set) var counts = OutcomeReport.Counts()
  }

  /// A policy with its rules' lines.
  public struct PolicyRules: Sendable {
    /// The policy.
    public let source: Source
    /// A line per rule, in the policy's order, `otherwise` last.
    public internal(set) var rules: [Rule]
    /// Its decisions in the window (all its rules').
    public var decisions: Int { rules.reduce(0) { $0 + $1.counts.decisions } }
  }

  /// The live policies, in the order given.
  public private(set) var policies: [PolicyRules]
  /// Rules recorded in the state's decisions but in none of the policies (renamed or removed
  /// rules, or another policy's), by policy and name.
  public private(set) var retired: [Rule] = []
  /// The window asked for.
  public let since: Date?
  /// The window's end (exclusive).
  public let until: Date?
  /// When the first and last decisions reported were received.
  public private(set) var first: Date?
  /// When the last decision reported was received.
  public private(set) var last: Date?

  /// The report of `decisions` against `sources`; requests imported from history, which no
  /// rule decided, are left out.
  public init(_ sources: [Source], _ decisions: [DecidedOutcome], since: Date?, until: Date?) {
    self.init(sources, since: since, until: until) { count in decisions.forEach(count) }
  }

  /// The report of the decisions `read` hands over one by one (as
  /// `StateStore.forEachDecidedOutcome` does), none of them kept once counted.
  public init(
    _ sources: [Source], since: Date?, until: Date?,
    reading read: ((DecidedOutcome) -> Void) throws -> Void
  ) rethrows {
    self.since = since
    self.until = until
    policies = sources.map { source in
      PolicyRules(
        source: source,
        rules: (source.rules + ["otherwise"]).map { Rule(policy: source.name, name: $0) })
    }
    let lines = RuleLines(policies)
    var retiredLines: [String: Int] = [:]
    var ruleKeys = RuleKeys()
    try read { decision in
      guard decision.action != DecidedOutcome.imported else { return }
      first = min(first ?? decision.receivedAt, decision.receivedAt)
      last = max(last ?? decision.receivedAt, decision.receivedAt)
      let request = ReportedRequest(decision, rules: &ruleKeys)
      if let (policy, index) = lines.line(of: decision) {
        policies[policy].rules[index].counts.add(request)
        return
      }
      let key = "\(decision.policyName)\u{0}\(decision.rule)"
      if retiredLines[key] == nil {
        retiredLines[key] = retired.count
        retired.append(Rule(policy: decision.policyName, name: decision.rule))
      }
      retired[retiredLines[key] ?? 0].counts.add(request)
    }
    retired.sort { ($0.policy, $0.name) < ($1.policy, $1.name) }
  }

  /// Every decision the report counts, the policies' and the retired rules'.
  public var decisions: Int {
    policies.reduce(0) { $0 + $1.decisions } + retired.reduce(0) { $0 + $1.counts.decisions }
  }

  /// The currencies any counted request was priced in, in order.
  var currencies: [String] {
    Set(
      (policies.flatMap(\.rules) + retired).flatMap { $0.counts.money.keys }
    ).sorted()
  }

  /// The dates covered: the window, or the decisions' span.
  func rangeText() -> String? {
    let zone = ReportPeriod(.day)
    guard let start = since ?? first, let end = until ?? last else { return nil }
    return
      "from \(zone.timestamp(start)) to \(zone.timestamp(end))\(until == nil ? "" : " (exclusive)")"
  }
}
