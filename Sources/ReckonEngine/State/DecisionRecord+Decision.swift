import Foundation
import ReckonAppStore
import ReckonPolicy

extension DecisionRecord {
  /// The record of `decision`, made by `policy` compiled from `policyText`: facts with their sources
  /// and the full explanation (field sources and trace) as JSON, the policy text's SHA-256.
  public init(decision: Decision, policy: CompiledPolicy, policyText: String) {
    let report = DecisionReport(decision, policy: policy)
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    let action: String
    var reason: String?
    switch decision.action {
    case .respond: action = "respond"
    case .hold: action = "hold"
    case .skip(let why):
      action = "skip"
      reason = why.description
    }
    self.init(
      policyName: decision.policyName, policyVersion: decision.policyVersion,
      policySHA256: SHA256Digest.hex(Data(policyText.utf8)), action: action, rule: decision.rule,
      reason: reason,
      body: try? decision.body?.jsonData(),
      factsJSON: (try? encoder.encode(report.facts)) ?? Data("[]".utf8),
      explanationJSON: try? encoder.encode(report), decidedAt: decision.decidedAt)
  }
}
