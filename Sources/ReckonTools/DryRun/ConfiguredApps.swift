import ReckonEngine

/// The apps `reckon.json` lists, as bundle id, environment and (in Production) Apple ID, so a
/// dry-run leaves out the requests `reckon serve` would refuse (another app, the app in another
/// environment, or a Production notification for another Apple ID) instead of deciding them.
/// Built once; asking costs one lookup in a small dictionary.
public struct ConfiguredApps: Sendable {
  private struct Key: Hashable {
    let bundleId: String
    let environment: String
  }

  /// Per listed app, the Apple ID its Production notifications must carry, if one is known.
  private let appleIds: [Key: Int64?]
  /// The one app, when there is one: two string comparisons cost less than hashing both.
  private let single: (key: Key, appleId: Int64?)?

  /// The apps of `configuration`; nil when it lists none, so every request is decided.
  public init?(_ configuration: ReckonConfiguration) {
    guard !configuration.apps.isEmpty else { return nil }
    var appleIds: [Key: Int64?] = [:]
    for app in configuration.apps {
      let key = Key(bundleId: app.bundleId, environment: app.environment.rawValue)
      // As serve checks: the app's own Apple ID, else the first listed for its bundle, and only
      // in Production (sandbox and Xcode notifications carry none that can be relied on).
      let expected =
        app.environment == .production
        ? app.appAppleId
          ?? configuration.apps.first(where: { $0.bundleId == app.bundleId })?.appAppleId
        : nil
      if appleIds[key] == nil { appleIds[key] = expected }
    }
    self.appleIds = appleIds
    single = appleIds.count == 1 ? appleIds.first.map { ($0.key, $0.value) } : nil
  }

  /// Whether `request` is for a listed app in its listed environment.
  public func contains(_ request: RefundRequest) -> Bool {
    // serve matches the notification's own bundle id and environment, as raw text here so no
    // enum is parsed per request.
    guard let data = request.notification.data, let bundleId = data.bundleId,
      let environment = data.rawEnvironment
    else { return false }
    let expected: Int64?
    if let single {
      guard single.key.bundleId == bundleId, single.key.environment == environment else {
        return false
      }
      expected = single.appleId
    } else {
      guard let listed = appleIds[Key(bundleId: bundleId, environment: environment)] else {
        return false
      }
      expected = listed
    }
    guard let expected else { return true }
    return data.appAppleId == expected
  }
}
