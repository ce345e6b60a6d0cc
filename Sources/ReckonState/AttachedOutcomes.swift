/// A request's outcomes as a backend reads them in one look-up: `TYPE revocationType
/// percentage` per outcome, oldest first, joined by commas (the empty parts left empty).
package struct AttachedOutcomes: Sendable {
  /// The outcomes, oldest first.
  package var types: [OutcomeType] = []
  /// How the first refund was made (REFUND_FULL, REFUND_PRORATED, ...).
  package var revocationType: String?
  /// The first refund's revocationPercentage, in milliunits.
  package var revocationPercentage: Int?

  /// The outcomes `joined` lists; none for nil.
  package init(_ joined: String?) {
    guard let joined else { return }
    for part in joined.split(separator: ",") {
      let fields = part.split(separator: " ", omittingEmptySubsequences: false)
      guard let name = fields.first, let type = OutcomeType(rawValue: String(name)) else {
        continue
      }
      if type == .refund, !types.contains(.refund) {
        revocationType = fields.count > 1 && !fields[1].isEmpty ? String(fields[1]) : nil
        revocationPercentage = fields.count > 2 ? Int(fields[2]) : nil
      }
      types.append(type)
    }
  }
}
