import Foundation
import ReckonAppStore
import ReckonEngine
import ReckonGooglePlay
import ReckonState

/// The counters `/metrics` shows, in Prometheus text format: requests by notification type and
/// verdict, decisions by action and rule, send results, policy reloads, refused facts file
/// reloads, requests refused before the webhook, outbox depth by state, and the webhook's latency from request to answer as a
/// histogram.
public final class ReckonMetrics: @unchecked Sendable {
  /// The latency histogram's upper bounds, in seconds.
  public static let latencyBuckets: [Double] = [
    0.000_5, 0.001, 0.002_5, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5,
  ]
  private let lock = NSLock()
  private var requests: [[String]: Int] = [:]
  private var decisions: [[String]: Int] = [:]
  private var sends: [[String]: Int] = [:]
  private var reloads: [[String]: Int] = [:]
  private var factsRefusals: [[String]: Int] = [:]
  private var httpRefusals: [[String]: Int] = [:]
  private var undecided: [[String]: Int] = [:]
  private var latencyCounts = [Int](repeating: 0, count: latencyBuckets.count)
  private var latencyCount = 0
  private var latencySum = 0.0

  /// Empty metrics.
  public init() {}

  /// Counts what `event` reports.
  public func record(_ event: ReckonEvent) {
    lock.withLock {
      switch event {
      case .answered(let type, let verdict, let status, _, _):
        requests[[Self.typeLabel(type), verdict.rawValue, String(status)], default: 0] += 1
      case .decided(_, _, let action, let rule, _, _, _):
        decisions[[action, rule], default: 0] += 1
      case .policyApplied: reloads[["applied"], default: 0] += 1
      case .policyRefused: reloads[["refused"], default: 0] += 1
      case .policyFallback: reloads[["fallback"], default: 0] += 1
      case .sender(let sent): sends[[Self.result(of: sent)], default: 0] += 1
      case .factsReloadRefused(let source, _, _): factsRefusals[[source], default: 0] += 1
      case .httpRefused(let status, _, _, let count, _):
        httpRefusals[[String(status)], default: 0] += count
      case .deferred: undecided[["deferred"], default: 0] += 1
      case .undecidedExpired: undecided[["expired"], default: 0] += 1
      case .retryFailed: undecided[["unreadable"], default: 0] += 1
      case .outcome, .policyLive, .decidedElsewhere, .pruned, .pruneFailed, .loopFailed,
        .leadChanged, .following:
        break
      }
    }
  }

  /// A notification type as a label: one of Apple's or Google Play's, else `other` (or `unknown` when none was
  /// read). Whoever can POST can put any text there (an unsigned Xcode payload, a refused one),
  /// and each distinct label would be a new series kept for the life of the process.
  static func typeLabel(_ type: String?) -> String {
    guard let type else { return "unknown" }
    let known =
      NotificationType(rawValue: type) != nil || GooglePlayStore.notificationTypes.contains(type)
    return known ? type : "other"
  }

  /// Adds one webhook latency, in seconds.
  public func observeLatency(_ seconds: Double) {
    lock.withLock {
      latencyCount += 1
      latencySum += seconds
      for (index, bound) in Self.latencyBuckets.enumerated() where seconds <= bound {
        latencyCounts[index] += 1
      }
    }
  }

  /// The metrics as Prometheus text (format 0.0.4), with what the state database holds; nil
  /// when it cannot be read, which `reckon_state_readable` then says, leaving its gauges out.
  /// `unsignedAccepted` names the environments accepted unsigned, by Apple's spelling;
  /// `leader`, whether this instance leads the once-only work; `policiesRefused`, whether each
  /// policy file's version on disk is refused; `now`, the time lags run to.
  public func render(
    state: StateGauges?, unsignedAccepted: [String] = [], leader: Bool = true,
    factSourcesHung: [String: Bool] = [:], policiesRefused: [String: Bool] = [:],
    now: Date = Date()
  ) -> String {
    lock.withLock {
      var text = ""
      family(
        &text, "reckon_webhook_requests_total", "counter",
        "Notifications answered, by type, verdict and HTTP status.",
        ["type", "verdict", "status"], requests)
      family(
        &text, "reckon_decisions_total", "counter", "Decisions made, by action and deciding rule.",
        ["action", "rule"], decisions)
      family(
        &text, "reckon_sends_total", "counter", "Outbox send results reported by the sender.",
        ["result"], sends)
      family(
        &text, "reckon_policy_reloads_total", "counter",
        "Policy reloads applied or refused (a refused policy keeps the previous one live).",
        ["result"], reloads)
      family(
        &text, "reckon_facts_reloads_refused_total", "counter",
        "Changed JSON facts files that did not read, by fact source (requests reading it wait until it is fixed).",
        ["source"], factsRefusals)
      family(
        &text, "reckon_http_refused_total", "counter",
        "Requests answered before the webhook read them (another path or method, malformed, too large, too slow, a connection too many), by status.",
        ["status"], httpRefusals)
      family(
        &text, "reckon_undecided_total", "counter",
        "Undecided requests: one kept undecided (on receipt or at a retry), a deadline passed with no decision (Apple got no reply), or the undecided requests unreadable (or a lapsed one not marked).",
        ["result"], undecided)
      family(
        &text, "reckon_trust_unsigned_accepted", "gauge",
        "1 for each environment whose notifications are accepted unsigned (trust.allowXcode, trust.allowLocalTesting): a development setting.",
        ["environment"],
        Dictionary(
          uniqueKeysWithValues: ["LocalTesting", "Xcode"].map {
            ([$0], unsignedAccepted.contains($0) ? 1 : 0)
          }))
      family(
        &text, "reckon_state_readable", "gauge",
        "1 when the state database answered this scrape, else 0 and its gauges are left out.", [],
        [[]: state == nil ? 0 : 1])
      family(
        &text, "reckon_leader", "gauge",
        "1 when this instance does the once-only work (retries of undecided requests, pruning) among those sharing the state.",
        [], [[]: leader ? 1 : 0])
      family(
        &text, "reckon_fact_source_hung", "gauge",
        "1 while a fact source is hung (its latest lookup ran out of time, or one that did has not returned): requests that need its facts wait.",
        ["source"],
        Dictionary(uniqueKeysWithValues: factSourcesHung.map { ([$0.key], $0.value ? 1 : 0) }))
      family(
        &text, "reckon_policy_refused", "gauge",
        "1 while a policy file's version on disk does not check or answers no request of some kind: an earlier version decides until it is fixed.",
        ["path"],
        Dictionary(uniqueKeysWithValues: policiesRefused.map { ([$0.key], $0.value ? 1 : 0) }))
      if let state {
        var depth: [[String]: Int] = [:]
        for name in OutboxDepthStates.all { depth[[name]] = state.outboxDepth[name] ?? 0 }
        family(
          &text, "reckon_outbox_entries", "gauge", "Outbox entries by state.", ["state"], depth)
        family(
          &text, "reckon_outbox_overdue_entries", "gauge",
          "Entries held, pending or sending past their deadline: no sender is running, or it is stuck.",
          [], [[]: state.overdue])
        family(
          &text, "reckon_undecided_requests", "gauge",
          "Requests without a decision whose deadline has not passed.", [], [[]: state.undecided])
        family(
          &text, "reckon_outbox_due_lag_seconds", "gauge",
          "How long the oldest due entry (held or pending, its time come) has waited: how far the senders lag.",
          [], [[]: Int(state.dueLag(now: now))])
        family(
          &text, "reckon_apps_paused", "gauge",
          "Apps whose sending is paused after a credentials problem (any instance's).", [],
          [[]: state.paused.count])
      }
      histogram(&text)
      return text
    }
  }

  private func family(
    _ text: inout String, _ name: String, _ type: String, _ help: String, _ labels: [String],
    _ values: [[String]: Int]
  ) {
    text += "# HELP \(name) \(help)\n# TYPE \(name) \(type)\n"
    for (key, value) in values.sorted(by: { $0.key.lexicographicallyPrecedes($1.key) }) {
      let pairs = zip(labels, key).map { "\($0)=\"\(Self.escape($1))\"" }
      text +=
        pairs.isEmpty ? "\(name) \(value)\n" : "\(name){\(pairs.joined(separator: ","))} \(value)\n"
    }
  }

  private func histogram(_ text: inout String) {
    let name = "reckon_webhook_latency_seconds"
    text += "# HELP \(name) Time from a complete webhook request to its answer.\n"
    text += "# TYPE \(name) histogram\n"
    for (index, bound) in Self.latencyBuckets.enumerated() {
      text += "\(name)_bucket{le=\"\(bound)\"} \(latencyCounts[index])\n"
    }
    text += "\(name)_bucket{le=\"+Inf\"} \(latencyCount)\n"
    text += "\(name)_sum \(latencySum)\n\(name)_count \(latencyCount)\n"
  }

  static func escape(_ value: String) -> String {
    value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
      .replacingOccurrences(of: "\n", with: "\\n")
  }

  static func result(of event: SenderEvent) -> String {
    switch event {
    case .sent: "sent"
    case .retrying: "retrying"
    case .failed: "failed"
    case .expired: "expired"
    case .credentialsProblem: "credentials_problem"
    case .throttled: "throttled"
    case .recoveredInterrupted: "recovered_interrupted"
    case .databaseProblem: "database_problem"
    case .databaseRecovered: "database_recovered"
    case .standingBy: "standing_by"
    case .tookOver: "took_over"
    }
  }
}

/// The outbox states, always shown in `/metrics` (zero when empty).
enum OutboxDepthStates {
  static let all = ["held", "pending", "sending", "sent", "failed", "expired", "dropped"]
}
