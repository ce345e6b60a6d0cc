import ReckonAppStore
import ReckonState

extension AppStoreApp {
  /// The app as the state keys it.
  public var key: AppKey { AppKey(bundleId: bundleId, environment: environment.rawValue) }

  /// The app a state key names; nil when its environment is none of Apple's.
  public init?(_ key: AppKey) {
    guard let environment = AppStoreEnvironment(rawValue: key.environment) else { return nil }
    self.init(bundleId: key.bundleId, environment: environment)
  }
}
