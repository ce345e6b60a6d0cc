import ReckonAppStore
import ReckonState

extension JWSTransactionDecodedPayload {
  /// What `outcome` took back of this transaction, as the state records it beside the outcome:
  /// Apple's revocation type and percentage for a refund, and for a seat refund the share of
  /// the seats refunded, in milliunits; nil for the outcomes that refund nothing.
  package func revocation(for outcome: OutcomeType) -> (type: String?, percentage: Int?)? {
    switch outcome {
    case .refund:
      return (rawRevocationType, revocationPercentage)
    case .seatsRefunded:
      guard let revoked = multiSeatInfo?.revokedSeatQuantity, let quantity, quantity > 0 else {
        return (rawRevocationType, nil)
      }
      let share = min(revoked, quantity) * ConsumptionRequestValidator.fullConsumption / quantity
      return (rawRevocationType, share)
    case .refundDeclined, .refundReversed, .revoke, .seatsUnclaimed:
      return nil
    }
  }
}
