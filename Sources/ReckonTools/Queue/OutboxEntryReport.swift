import Foundation
import ReckonEngine
import ReckonPolicy
import ReckonState
import ReckonSupport

/// An outbox entry as `reckon queue show` and `--format json` report it: its state, body,
/// tries and the decision it came from.
public struct OutboxEntryReport: Encodable {
  struct Attempt: Encodable {
    let startedAt: Date
    let httpStatus: Int?
    let errorCode: Int?
    let errorMessage: String?
    let result: String
  }

  /// Why the entry holds what it holds: the stored decision it was made from.
  struct Decision: Encodable {
    let decidedAt: Date
    let policy: String
    let policyVersion: String?
    let policySHA256: String
    let action: String
    let rule: String
    let reason: String?
    /// The facts the decision read, with where each came from, as stored.
    let facts: JSONValue?
    /// The stored facts exactly, for the text form.
    let storedFacts: Data
    /// Which rule decided and why, and why each earlier rule did not, as stored: what a person
    /// reviewing a held entry asks first.
    let explanation: DecisionExplanation?

    private enum CodingKeys: String, CodingKey {
      case decidedAt, policy, policyVersion, policySHA256, action, rule, reason, explanation, facts
    }

    init(_ record: DecisionRecord) {
      decidedAt = record.decidedAt
      policy = record.policyName
      policyVersion = record.policyVersion
      policySHA256 = record.policySHA256
      action = record.action
      rule = record.rule
      reason = record.reason
      facts = try? JSONValue.parse(record.factsJSON)
      storedFacts = record.factsJSON
      explanation = record.explanation
    }

    /// The decision line, then one line per fact read (`name = value (source)`); the stored
    /// JSON as it is when it is not the list Reckon writes.
    func lines(_ time: ISO8601DateFormatter) -> [String] {
      let version = policyVersion.map { "version \($0), " } ?? ""
      var lines = [
        "decided at \(time.string(from: decidedAt)): \(action) by rule '\(rule)' of \(policy)"
          + " (\(version)sha256 \(policySHA256.prefix(12)))" + (reason.map { ": \($0)" } ?? "")
      ]
      if let explanation {
        lines += DecisionExplainer.whyLines(explanation)
        let missing = explanation.missingFacts
        lines.append(
          "Missing facts: " + (missing.isEmpty ? "none" : missing.joined(separator: ", ")))
      } else {
        // Said rather than left out, so a missing section is not taken for a display fault.
        lines.append("Why: not recorded with this decision")
      }
      guard case .array(let list)? = facts else {
        return lines + ["facts: " + String(decoding: storedFacts, as: UTF8.self)]
      }
      lines.append(list.isEmpty ? "facts: none read" : "facts:")
      for case .object(let fact) in list {
        guard case .string(let name)? = fact["name"] else { continue }
        var value: String = if case .string(let text)? = fact["value"] { text } else { "missing" }
        // A duration stored in seconds (246 days and some hours) gets its size in words too.
        if case .duration(let seconds)? = try? ValueParser.parse(value, as: .duration),
          let about = Value.approximateDuration(seconds)
        {
          value += " (\(about))"
        }
        let source: String =
          if case .string(let from)? = fact["source"] { " (\(from))" } else { "" }
        lines.append("  \(name) = \(value)\(source)")
      }
      return lines
    }
  }

  let id: Int64
  let state: String
  /// When the entry entered its state (for a held entry, when it was held; for a pending one,
  /// when it became or becomes due).
  let stateAt: Date
  /// When a pending entry waiting to retry (after a failure, a 429 or a pause) is tried next;
  /// nil when it is due now or not pending.
  let nextTryAt: Date?
  /// When a held entry goes out as decided, unless approved, edited or dropped first.
  let releaseAt: Date?
  let reason: String?
  let bundleId: String
  let environment: String
  let transactionId: String
  let deadline: Date
  /// Still waiting (held, pending or sending) with its deadline passed: no sender took it.
  let overdue: Bool
  let attempts: Int
  let interruptedSends: Int
  let lastStatus: Int?
  let lastError: String?
  /// The body as a JSON value, for `--format json` (whose encoder sorts its keys).
  let body: JSONValue?
  let history: [Attempt]?
  let decision: Decision?
  /// The body exactly as stored and sent, for the text form: re-encoding it would reorder its
  /// keys from run to run and could show bytes Apple never received.
  let storedBody: Data

  private enum CodingKeys: String, CodingKey {
    case id, state, stateAt, nextTryAt, releaseAt, reason, bundleId, environment, transactionId,
      deadline, overdue
    case attempts, interruptedSends, lastStatus, lastError, body, history, decision
  }

  /// The report of `entry` at `now`, with its attempts and decision when given.
  public init(
    _ entry: OutboxEntry, attempts: [DeliveryAttempt]? = nil, decision: DecisionRecord? = nil,
    now: Date = Date()
  ) {
    self.decision = decision.map(Decision.init)
    id = entry.id
    state = entry.state.name
    // A held state carries its release time; entries are held only when made.
    if case .held(let release) = entry.state {
      stateAt = entry.createdAt ?? release
      releaseAt = release
    } else {
      stateAt = entry.state.time
      releaseAt = nil
    }
    // A pending entry's time is when it may go; in the future it is a next try, not a "since".
    if case .pending(let notBefore) = entry.state, notBefore > now {
      nextTryAt = notBefore
    } else {
      nextTryAt = nil
    }
    reason = entry.state.reason
    bundleId = entry.app.bundleId
    environment = entry.app.environment
    transactionId = entry.transactionId
    deadline = entry.deadline
    overdue = entry.isOverdue(at: now)
    self.attempts = entry.failedTries
    interruptedSends = entry.interruptedSends
    lastStatus = entry.lastStatus
    lastError = entry.lastError
    body = try? JSONValue.parse(entry.body)
    storedBody = entry.body
    history = attempts?.map {
      Attempt(
        startedAt: $0.startedAt, httpStatus: $0.httpStatus, errorCode: $0.errorCode,
        errorMessage: $0.errorMessage, result: $0.result)
    }
  }

  /// The report as lines for a terminal, each line one line whatever the entry holds.
  public var text: String {
    let time = ISO8601DateFormatter()
    let release = releaseAt.map { ", to be sent as decided at \(time.string(from: $0))" } ?? ""
    let when =
      nextTryAt.map { ", next try at \(time.string(from: $0))" }
      ?? " since \(time.string(from: stateAt))"
    var lines = [
      "entry \(id): \(state)\(when)\(release)\(reason.map { " (\($0))" } ?? "")",
      "app: \(bundleId) (\(environment)), transaction \(transactionId), deadline \(time.string(from: deadline))",
      // `attempts` counts only failed tries, so it is named as such: "attempts: 0" beside a 202
      // read as if nothing had been sent.
      "failed tries: \(attempts), sends interrupted by a crash: \(interruptedSends); last answer: "
        + (lastStatus.map { "HTTP \($0)" } ?? "none") + (lastError.map { " (\($0))" } ?? ""),
    ]
    lines += decision?.lines(time) ?? []
    lines.append("body: " + String(decoding: storedBody, as: UTF8.self))
    for attempt in history ?? [] {
      let parts = [
        // No status for an operator's command or a try that got no answer: nothing to print.
        time.string(from: attempt.startedAt), attempt.result,
        attempt.httpStatus.map { "HTTP \($0)" },
        attempt.errorCode.map(String.init), attempt.errorMessage,
      ]
      lines.append("  " + parts.compactMap { $0 }.filter { !$0.isEmpty }.joined(separator: " "))
    }
    // Each line one line: a line break in a rule name, a fact or Apple's message must not
    // start a line of its own that reads as the report's.
    return lines.map(Self.cell).joined(separator: "\n")
  }

  private static func cell(_ text: String) -> String {
    TerminalSafeText.shown(text, oneLine: true)
  }
}
