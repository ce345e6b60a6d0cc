import Foundation
import ReckonSupport

/// The external purchase token an EXTERNAL_PURCHASE_TOKEN notification carries instead of
/// `data`: the Base64URL-decoded token the app or website received for an external purchase.
public struct ExternalPurchaseToken: Codable, Hashable, Sendable {
  /// The token's unique identifier; a sandbox token's starts with `SANDBOX`.
  public var externalPurchaseId: String?
  /// When the system created the token.
  public var tokenCreationDate: Date?
  /// The app's App Store identifier.
  public var appAppleId: Int64?
  /// The app's bundle identifier.
  public var bundleId: String?

  /// Creates an empty token; set the fields you need.
  public init() {}

  /// The environment the token belongs to, which Apple does not write: Sandbox when
  /// `externalPurchaseId` starts with `SANDBOX`, Production otherwise, as Apple's libraries read
  /// it; nil when the token has no `externalPurchaseId`.
  public var environment: AppStoreEnvironment? {
    externalPurchaseId.map(Self.environment(ofId:))
  }

  /// The environment a token of this `externalPurchaseId` belongs to: never Xcode or
  /// LocalTesting, so such a notification always needs Apple's signature.
  static func environment(ofId externalPurchaseId: String) -> AppStoreEnvironment {
    externalPurchaseId.hasPrefix("SANDBOX") ? .sandbox : .production
  }
}
