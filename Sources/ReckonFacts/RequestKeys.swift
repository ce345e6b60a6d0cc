/// The identifiers a fact source can look a request up by.
public struct RequestKeys: Hashable, Sendable {
  /// The transaction being refunded.
  public let transactionId: String?
  /// The original transaction of a subscription or restore chain.
  public let originalTransactionId: String?
  /// The app's own account UUID set at purchase, lower-case.
  public let appAccountToken: String?
  /// The product identifier.
  public let productId: String?
  /// The app's bundle identifier.
  public let bundleId: String?

  /// Creates a set of keys.
  public init(transactionId: String?, originalTransactionId: String?, appAccountToken: String?, productId: String?, bundleId: String?) {
    self.transactionId = transactionId
    self.originalTransactionId = originalTransactionId
    self.appAccountToken = appAccountToken
    self.productId = productId
    self.bundleId = bundleId
  }
}
