import ReckonSupport

/// A purchase Google refunded, charged back or cancelled: how a chargeback review ended, when it
/// ended with the money returned.
public struct VoidedPurchaseNotification: Hashable, Sendable {
  /// Whether the purchase was a subscription or a one-time product.
  public enum ProductType: Hashable, Sendable {
    case subscription
    case oneTime
    case unrecognized(Int)

    init(number: Int) {
      switch number {
      case 1: self = .subscription
      case 2: self = .oneTime
      default: self = .unrecognized(number)
      }
    }

    var number: Int {
      switch self {
      case .subscription: 1
      case .oneTime: 2
      case .unrecognized(let number): number
      }
    }
  }

  /// Whether all of the purchase was refunded or part of its quantity.
  public enum RefundType: Hashable, Sendable {
    case fullRefund
    case quantityBasedPartialRefund
    case unrecognized(Int)

    init(number: Int) {
      switch number {
      case 1: self = .fullRefund
      case 2: self = .quantityBasedPartialRefund
      default: self = .unrecognized(number)
      }
    }

    var number: Int {
      switch self {
      case .fullRefund: 1
      case .quantityBasedPartialRefund: 2
      case .unrecognized(let number): number
      }
    }
  }

  /// The purchase's token.
  public let purchaseToken: String
  /// The order that was voided: matches a review's `orderId`.
  public let orderId: String
  /// Subscription or one-time product.
  public let productType: ProductType
  /// Full or partial.
  public let refundType: RefundType

  /// Creates a voided-purchase notification.
  public init(
    purchaseToken: String, orderId: String, productType: ProductType = .oneTime,
    refundType: RefundType = .fullRefund
  ) {
    self.purchaseToken = purchaseToken
    self.orderId = orderId
    self.productType = productType
    self.refundType = refundType
  }

  init(_ fields: PayloadFields) throws(GooglePlayPayloadError) {
    self.init(
      purchaseToken: try fields.string("purchaseToken"), orderId: try fields.string("orderId"),
      productType: ProductType(number: try fields.integer("productType")),
      refundType: RefundType(number: try fields.integer("refundType", optional: true) ?? 1))
  }

  var json: JSONValue {
    .object([
      "purchaseToken": .string(purchaseToken), "orderId": .string(orderId),
      "productType": .integer(productType.number), "refundType": .integer(refundType.number),
    ])
  }
}
