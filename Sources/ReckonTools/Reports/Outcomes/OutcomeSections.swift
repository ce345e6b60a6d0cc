/// The outcomes report's tables over one stretch of requests (the whole range, or one period):
/// the headline, the imported history apart, and the groups by preference, rule, reason and
/// product type.
public struct OutcomeSections: Hashable, Sendable {
  /// Every decision: Reckon's own, so the headline says how the store followed them.
  public internal(set) var all = OutcomeReport.Counts()
  /// The requests imported from Apple's history and never decided by Reckon, apart from `all`.
  public internal(set) var importedHistory = OutcomeReport.Counts()
  /// By the refund preference in the body the store received (`none` for data only); decisions
  /// that sent nothing are grouped by why.
  public internal(set) var byPreference: [String: OutcomeReport.Counts] = [:]
  /// By deciding rule (`policy: rule`).
  public internal(set) var byRule: [String: OutcomeReport.Counts] = [:]
  /// By the customer's reason.
  public internal(set) var byReason: [String: OutcomeReport.Counts] = [:]
  /// By product type.
  public internal(set) var byProductType: [String: OutcomeReport.Counts] = [:]

  mutating func add(_ request: ReportedRequest) {
    if request.imported {
      importedHistory.add(request)
    } else {
      all.add(request)
    }
    byPreference[request.preference, default: OutcomeReport.Counts()].add(request)
    byRule[request.rule, default: OutcomeReport.Counts()].add(request)
    byReason[request.reason, default: OutcomeReport.Counts()].add(request)
    byProductType[request.productType, default: OutcomeReport.Counts()].add(request)
  }

  /// The groups by title, in the order the report shows them.
  var sections: [(title: String, key: String, groups: [String: OutcomeReport.Counts])] {
    [
      ("By preference sent", "byPreference", byPreference),
      ("By deciding rule", "byRule", byRule), ("By reason", "byReason", byReason),
      ("By product type", "byProductType", byProductType),
    ]
  }

  /// The sections as people read them: preferences in the policy language's words.
  var labelledSections: [(title: String, key: String, groups: [String: OutcomeReport.Counts])] {
    sections.map { section in
      guard section.key == "byPreference" else { return section }
      // A stored preference may already read as a label (a hand-edited database): merged,
      // not a crash on the duplicate key.
      return (
        section.title, section.key,
        Dictionary(
          section.groups.map { (DryRunOutcome.preferenceLabel($0.key), $0.value) },
          uniquingKeysWith: { $0.adding($1) })
      )
    }
  }
}
