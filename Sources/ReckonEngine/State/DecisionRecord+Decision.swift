import Foundation
import ReckonAppStore
import ReckonPolicy
import ReckonState
import ReckonSupport

extension DecisionRecord {
  /// The record of `decision`, made by `policy` compiled from `policyText`: facts with their sources
  /// and the full explanation (field sources and trace) as JSON, the policy text's SHA-256.
  public init(decision: Decision, policy: CompiledPolicy, policyText: String) {
    self.init(
      decision: decision, policy: policy, policySHA256: SHA256Digest.hex(Data(policyText.utf8)))
  }

  /// The record of `decision`, made by `policy` whose text has the SHA-256 `policySHA256` (hex),
  /// for callers that hash the text once rather than per decision.
  public init(decision: Decision, policy: CompiledPolicy, policySHA256: String) {
    let report = DecisionReport(decision, policy: policy)
    let action: String
    var reason: String?
    switch decision.action {
    case .respond: action = "respond"
    case .hold:
      action = "hold"
      reason = decision.holdReason
    case .skip(let why):
      action = "skip"
      reason = why.description(body: decision.body)
    }
    // Written by `JSONTextWriter`, byte for byte what `JSONEncoder` with `.sortedKeys` gives,
    // because the generic encoder was the largest cost of a webhook request.
    let json = report.compactJSONAndFacts()
    self.init(
      policyName: decision.policyName, policyVersion: decision.policyVersion,
      policySHA256: policySHA256, action: action, rule: decision.rule, reason: reason,
      body: decision.reply?.json, factsJSON: json.facts, explanationJSON: json.report,
      decidedAt: decision.decidedAt)
  }
}

extension DecisionRecord {
  /// Why the decision came out as it did, read back from the stored explanation; nil when none
  /// was stored or it cannot be read.
  public var explanation: DecisionExplanation? {
    guard let explanationJSON else { return nil }
    return (try? JSONDecoder().decode(StoredReport.self, from: explanationJSON))?.explanation
  }

  /// The part of a stored `DecisionReport` that `explanation` reads.
  private struct StoredReport: Decodable {
    let explanation: DecisionExplanation?
  }
}
