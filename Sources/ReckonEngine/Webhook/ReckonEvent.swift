import Foundation
import ReckonAppStore
import ReckonGooglePlay
import ReckonState
import ReckonSupport

/// Something the webhook pipeline, the sender or policy reloading reports. `reckon serve` writes
/// each as a JSON line and counts them in `/metrics`; an embedder may log them its own way.
public enum ReckonEvent: Hashable, Sendable, CustomStringConvertible {
  /// A notification was answered.
  case answered(
    type: String?, verdict: WebhookAnswer.Verdict, status: Int, detail: String?,
    client: String? = nil)
  /// A request was decided; `reason` says why a skip sends nothing (the deciding rule may be
  /// one that grants a refund, overruled by a safety gate such as missing consent).
  case decided(
    requestId: Int64, transactionId: String, action: String, rule: String, reason: String?,
    entryId: Int64?, factProblems: [String] = [])
  /// A recorded request could not be decided now and will be retried.
  case deferred(requestId: Int64, reason: String)
  /// The undecided requests could not be read from the state database; they are tried again
  /// at the next retry.
  case retryFailed(reason: String)
  /// A request was decided here, but another service on the same state database had decided
  /// it first: that decision (`decisionId`) and its reply stand, this one was not written.
  case decidedElsewhere(requestId: Int64, transactionId: String, decisionId: Int64)
  /// An outcome was attached to the request it answers (nil when no request matched).
  case outcome(type: String, transactionId: String, requestId: Int64?)
  /// The policy deciding for an app when the service started.
  case policyLive(LivePolicy)
  /// An app's policy was replaced by a new version that checks (or a refused edit was taken
  /// back, so the live version is in force again).
  case policyApplied(LivePolicy)
  /// A changed policy failed `check` and was refused; the previous one stays live.
  case policyRefused(path: String, diagnostics: String)
  /// At start an app's policy file did not check (`diagnostics`), so the version kept in the
  /// state when it last went live (at `wentLiveAt`) decides until the file is fixed.
  case policyFallback(LivePolicy, diagnostics: String, wentLiveAt: Date)
  /// Something the sender reported.
  case sender(SenderEvent)
  /// A JSON facts file (or folder) of fact source `source` changed and no longer reads; the
  /// requests that read the source wait until it is fixed.
  case factsReloadRefused(source: String, path: String, problem: String)
  /// A request answered before the webhook read it: another path or method (404, 405), or one
  /// the HTTP server refused (malformed, too large, too slow, a connection too many); `path`
  /// when it was read; `count` requests (connections over the limit are reported together).
  /// Apple posting to a wrong URL, or a body limit set too small, shows here.
  case httpRefused(
    status: Int, reason: String, path: String?, count: Int = 1, client: String? = nil)
  /// Records of notifications received before `before` were removed from the state database
  /// (`state.keepDays`).
  case pruned(before: Date, removed: PruneCounts)
  /// Pruning the state database failed (`reckon serve` tries again the next day).
  case pruneFailed(reason: String)
  /// A request's deadline passed with no decision: Apple got no reply to it.
  case undecidedExpired(LapsedRequest)
  /// One of `ReckonService.run()`'s loops (`sender`, `retry`, `policy-watch`) stopped on an
  /// error; it stays stopped until the service is run again.
  case loopFailed(loop: String, reason: String)
  /// This instance took the lead on the state's once-only work (retries, pruning), or lost it.
  case leadChanged(leads: Bool)
  /// This instance started without the lead: another using the state retries and prunes.
  case following

  /// `error`, `warning` or `info`.
  public var level: String {
    switch self {
    case .answered(_, let verdict, _, _, _):
      verdict == .recordingFailed ? "error" : verdict == .refused ? "warning" : "info"
    case .deferred, .policyRefused, .factsReloadRefused: "warning"
    // Another path or method is most often a scanner or a health probe at `/`: info, not a
    // warning on every one; the metric shows a wrong webhook URL as well.
    case .httpRefused(let status, _, _, _, _): status == 404 || status == 405 ? "info" : "warning"
    case .retryFailed, .pruneFailed, .undecidedExpired, .policyFallback, .loopFailed: "error"
    case .leadChanged(let leads): leads ? "info" : "warning"
    case .following: "info"
    case .pruned: "info"
    case .decidedElsewhere: "info"
    // A source that failed or a fact refused may have changed the decision: worth a look.
    case .decided(_, _, _, _, _, _, let problems): problems.isEmpty ? "info" : "warning"
    case .outcome: "info"
    // A version that goes live with warnings is worth a look, as `check` says.
    case .policyLive(let policy), .policyApplied(let policy):
      policy.warnings.isEmpty ? "info" : "warning"
    case .sender(let event): event.level
    }
  }

  /// A short name for the kind of event, e.g. `decided`.
  public var name: String {
    switch self {
    case .answered: "answered"
    case .decided: "decided"
    case .deferred: "deferred"
    case .retryFailed: "retry_failed"
    case .decidedElsewhere: "decided_elsewhere"
    case .outcome: "outcome"
    case .policyLive: "policy_live"
    case .policyApplied: "policy_applied"
    case .policyRefused: "policy_refused"
    case .policyFallback: "policy_fallback"
    case .sender: "sender"
    case .factsReloadRefused: "facts_reload_refused"
    case .httpRefused: "http_refused"
    case .pruned: "pruned"
    case .pruneFailed: "prune_failed"
    case .undecidedExpired: "undecided_expired"
    case .loopFailed: "loop_failed"
    case .leadChanged(let leads): leads ? "lead_taken" : "lead_lost"
    case .following: "following"
    }
  }

  /// One sentence for a log.
  public var description: String {
    switch self {
    case .answered(let type, let verdict, let status, let detail, _):
      "\(type ?? "a notification") answered \(status) (\(verdict.rawValue))"
        + (detail.map { ": \($0)" } ?? "")
    case .decided(
      let request, let transaction, let action, let rule, let reason, let entry, let problems):
      "request \(request) for transaction \(transaction) decided \(action) by rule '\(rule)'"
        + (reason.map { " (\($0))" } ?? "") + (entry.map { ", outbox entry \($0)" } ?? "")
        + (problems.isEmpty ? "" : "; facts: " + problems.joined(separator: "; "))
    case .deferred(let request, let reason):
      "request \(request) kept undecided and will be retried: \(reason)"
    case .retryFailed(let reason):
      "undecided requests could not be read or marked, to be tried again: \(reason)"
    case .decidedElsewhere(let request, let transaction, let decision):
      "request \(request) for transaction \(transaction) was decided first by another service "
        + "on the state database (decision \(decision)); this decision was not written"
    case .outcome(let type, let transaction, let request):
      "\(type) for transaction \(transaction) "
        + (request.map { "attached to request \($0)" } ?? "recorded (no request for it)")
    case .policyLive(let policy):
      "policy \(policy.named) decides for \(policy.app)" + policy.warningNote
    case .policyApplied(let policy):
      "policy \(policy.named) is now live for \(policy.app)" + policy.warningNote
    case .policyRefused(let path, let diagnostics):
      "policy \(path) does not check and was refused; the previous version stays live\n"
        + diagnostics
    case .policyFallback(let policy, let diagnostics, let wentLiveAt):
      "policy file \(policy.path) does not check, so \(policy.app) is decided by the version "
        + "that went live from it at \(wentLiveAt.formatted(.iso8601)), kept in the state ("
        + (policy.version.map { "version \($0), " } ?? "") + "sha256 \(policy.sha256.prefix(12))), "
        + "until the file is fixed\n" + diagnostics
    case .sender(let event): event.description
    case .factsReloadRefused(let source, let path, let problem):
      "facts file \(path) of fact source '\(source)' does not read since it changed; requests "
        + "that read the source wait until it is fixed: " + problem
    case .httpRefused(let status, let reason, let path, let count, _):
      (count == 1 ? "request" : "\(count) requests")
        + "\(path.map { " for \($0)" } ?? "") answered \(status) without reaching the webhook: "
        + reason
    case .pruned(let before, let removed):
      "removed the records of notifications received before \(before.formatted(.iso8601)): "
        + removed.described.joined(separator: ", ")
    case .pruneFailed(let reason):
      "pruning the state database failed, to be tried again in a day: \(reason)"
    case .undecidedExpired(let lapsed):
      // A Google Play review's transaction is its order.
      "request \(lapsed.requestId) for "
        + (lapsed.environment == GooglePlayStore.environment ? "order" : "transaction")
        + " \(lapsed.transactionId) of \(lapsed.app) was never decided and its deadline passed at "
        + "\(lapsed.deadline.formatted(.iso8601)): "
        + (lapsed.environment == GooglePlayStore.environment
          ? "Google Play got no answer" : "Apple got no reply")
        + (lapsed.retries == 0
          ? ""
          : "; \(lapsed.retries) \(lapsed.retries == 1 ? "retry" : "retries") failed")
        + (lapsed.lastReason.map { ", the last: \($0)" } ?? "")
    case .loopFailed(let loop, let reason): "the \(loop) loop stopped: \(reason)"
    case .leadChanged(true):
      "this instance leads: it retries undecided requests and prunes the state"
    case .leadChanged(false):
      "this instance no longer leads: another retries and prunes, or the state is unreachable"
    case .following:
      "another instance leads this state: it retries undecided requests and prunes the state, "
        + "and this one answers notifications"
    }
  }

  /// Fields a log line carries besides the message, for a pipeline to filter on: the ids,
  /// action, rule, status and app a message names; numbers as JSON numbers.
  public var fields: [String: JSONValue] {
    switch self {
    case .answered(let type, let verdict, let status, _, let client):
      var fields: [String: JSONValue] = [
        "verdict": .string(verdict.rawValue), "status": .int(status),
      ]
      fields["type"] = type.map(JSONValue.string)
      fields["client"] = client.map(JSONValue.string)
      return fields
    case .decided(
      let request, let transaction, let action, let rule, let reason, let entry, let problems):
      var fields: [String: JSONValue] = [
        "requestId": .int(request), "transactionId": .string(transaction),
        "action": .string(action), "rule": .string(rule),
      ]
      fields["entryId"] = entry.map(JSONValue.int)
      fields["reason"] = reason.map(JSONValue.string)
      if !problems.isEmpty { fields["facts"] = .string(problems.joined(separator: "; ")) }
      return fields
    case .deferred(let request, _): return ["requestId": .int(request)]
    case .undecidedExpired(let lapsed):
      return [
        "requestId": .int(lapsed.requestId), "transactionId": .string(lapsed.transactionId),
        "app": .string(lapsed.bundleId), "environment": .string(lapsed.environment),
        "deadline": .string(lapsed.deadline.formatted(.iso8601)),
        "retries": .int(lapsed.retries),
      ]
    case .decidedElsewhere(let request, let transaction, let decision):
      return [
        "requestId": .int(request), "transactionId": .string(transaction),
        "decisionId": .int(decision),
      ]
    case .outcome(let type, let transaction, let request):
      var fields: [String: JSONValue] = [
        "type": .string(type), "transactionId": .string(transaction),
      ]
      fields["requestId"] = request.map(JSONValue.int)
      return fields
    case .policyRefused(let path, _): return ["path": .string(path)]
    case .loopFailed(let loop, _): return ["loop": .string(loop)]
    case .sender(let event): return event.fields
    case .factsReloadRefused(let source, let path, let problem):
      return ["source": .string(source), "path": .string(path), "problem": .string(problem)]
    case .httpRefused(let status, _, let path, let count, let client):
      var fields: [String: JSONValue] = ["status": .int(status), "count": .int(count)]
      fields["path"] = path.map(JSONValue.string)
      fields["client"] = client.map(JSONValue.string)
      return fields
    case .pruned(let before, let removed):
      return [
        "before": .string(before.formatted(.iso8601)), "notifications": .int(removed.notifications),
        "decisions": .int(removed.decisions), "entries": .int(removed.entries),
        "attempts": .int(removed.attempts), "outcomes": .int(removed.outcomes),
      ]
    case .policyFallback(let policy, _, let wentLiveAt):
      return [
        "path": .string(policy.path), "app": .string(policy.bundleId),
        "environment": .string(policy.environment), "sha256": .string(policy.sha256),
        "wentLiveAt": .string(wentLiveAt.formatted(.iso8601)),
      ]
    case .policyLive(let policy), .policyApplied(let policy):
      var fields: [String: JSONValue] = [
        "path": .string(policy.path), "app": .string(policy.bundleId),
        "environment": .string(policy.environment), "sha256": .string(policy.sha256),
      ]
      fields["version"] = policy.version.map(JSONValue.string)
      return fields
    default: return [:]
    }
  }
}

extension JSONValue {
  /// An integer field of a log line.
  static func int(_ value: some BinaryInteger) -> JSONValue { .integer(Int(value)) }
}
