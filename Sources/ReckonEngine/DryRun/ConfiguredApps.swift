/// The apps `reckon.json` lists, as bundle id and environment, so a dry-run leaves out the
/// requests `reckon serve` would refuse (another app, or the app in another environment) instead
/// of deciding them. Built once; asking costs one lookup in a small set.
public struct ConfiguredApps: Sendable {
  private struct Key: Hashable {
    let bundleId: String
    let environment: String
  }

  private let keys: Set<Key>
  /// The one app, when there is one: two string comparisons cost less than hashing both.
  private let single: Key?

  /// The apps of `configuration`; nil when it lists none, so every request is decided.
  public init?(_ configuration: ReckonConfiguration) {
    guard !configuration.apps.isEmpty else { return nil }
    keys = Set(
      configuration.apps.map { Key(bundleId: $0.bundleId, environment: $0.environment.rawValue) })
    single = keys.count == 1 ? keys.first : nil
  }

  /// Whether `request` is for a listed app in its listed environment.
  public func contains(_ request: RefundRequest) -> Bool {
    // serve matches the notification's own bundle id and environment, as raw text here so no
    // enum is parsed per request.
    guard let data = request.notification.data, let bundleId = data.bundleId,
      let environment = data.rawEnvironment
    else { return false }
    if let single { return single.bundleId == bundleId && single.environment == environment }
    return keys.contains(Key(bundleId: bundleId, environment: environment))
  }
}
