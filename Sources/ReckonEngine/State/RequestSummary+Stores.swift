import ReckonAppStore
import ReckonGooglePlay
import ReckonState

extension RequestSummary {
  /// What the reports read of an App Store notification: the transaction's price and
  /// currency, the customer's reason and the product type.
  public static func appStore(
    _ payload: ResponseBodyV2DecodedPayload, transaction: JWSTransactionDecodedPayload?
  ) -> RequestSummary {
    RequestSummary(
      price: transaction?.price, currency: transaction?.currency,
      reason: payload.data?.rawConsumptionRequestReason,
      productType: transaction?.type?.policyName)
  }

  /// What the reports read of a Google Play notification: a review names its reason and no
  /// price (Google's notification carries none).
  public static func googlePlay(_ notification: DeveloperNotification) -> RequestSummary {
    guard case .pendingRefundReview(let review) = notification.kind else {
      return RequestSummary(productType: productTypeGooglePlay)
    }
    return RequestSummary(
      reason: review.refundReason?.name, productType: productTypeGooglePlay)
  }

  /// The product type the reports give a Google Play review, which names none.
  public static let productTypeGooglePlay = "Google Play"
}
