import Foundation

/// What notifications must chain to.
public struct TrustConfiguration: Hashable, Sendable {
  /// PEM or DER root certificates; empty means Apple Root CA - G3, shipped with Reckon.
  public var rootCertificatePaths: [String]
  /// Whether Xcode StoreKit-testing notifications (unsigned by Apple) are accepted.
  public var allowXcode: Bool
  /// Whether LocalTesting notifications are accepted.
  public var allowLocalTesting: Bool

  init(_ reader: ConfigurationReader?, resolve: (String) -> String) throws(ConfigurationError) {
    try reader?.rejectUnknownKeys(["roots", "allowXcode", "allowLocalTesting"])
    rootCertificatePaths = (try reader?.strings("roots") ?? []).map(resolve)
    allowXcode = try reader?.bool("allowXcode", default: false) ?? false
    allowLocalTesting = try reader?.bool("allowLocalTesting", default: false) ?? false
  }
}
