import ReckonSupport

/// The identifiers a fact source can look a request up by.
public struct RequestKeys: Hashable, Sendable {
  /// The transaction being refunded.
  public let transactionId: String?
  /// The original transaction of a subscription or restore chain.
  public let originalTransactionId: String?
  /// The customer's account id: Apple's `appAccountToken` (a UUID, lower-case), Google's
  /// `obfuscatedAccountId` (as written).
  public let appAccountToken: String?
  /// The product identifier.
  public let productId: String?
  /// The app's bundle identifier.
  public let bundleId: String?

  /// Creates a set of keys; the account id is kept as sources match it (`UUIDText.accountKey`).
  public init(
    transactionId: String?, originalTransactionId: String?, appAccountToken: String?,
    productId: String?, bundleId: String?
  ) {
    self.transactionId = transactionId
    self.originalTransactionId = originalTransactionId
    self.appAccountToken = appAccountToken.map(UUIDText.accountKey)
    self.productId = productId
    self.bundleId = bundleId
  }
}

extension RequestKeys {
  /// One key, by the name a SQL query's parameter uses for it (`:transaction_id`).
  public enum Field: String, CaseIterable, Hashable, Sendable {
    case transactionId = "transaction_id"
    case originalTransactionId = "original_transaction_id"
    case appAccountToken = "app_account_token"
    case productId = "product_id"
    case bundleId = "bundle_id"

    /// The parameter as written in SQL, e.g. `:transaction_id`.
    public var parameter: String { ":" + rawValue }
  }

  /// The value of one key, if the request has it.
  public subscript(field: Field) -> String? {
    switch field {
    case .transactionId: transactionId
    case .originalTransactionId: originalTransactionId
    case .appAccountToken: appAccountToken
    case .productId: productId
    case .bundleId: bundleId
    }
  }
}
