/// The app a reply is for, in its store's own words: the app's id there (an App Store bundle
/// id) and the store environment (`Production`, `Sandbox`). Pacing, pauses and counts are per
/// app key.
public struct AppKey: Hashable, Sendable, CustomStringConvertible {
  /// The app's id in its store.
  public var bundleId: String
  /// The store environment.
  public var environment: String

  /// An app key from its parts.
  public init(bundleId: String, environment: String) {
    self.bundleId = bundleId
    self.environment = environment
  }

  /// `bundleId (environment)`.
  public var description: String { "\(bundleId) (\(environment))" }
}

extension AppKey {
  /// `apps` as the state's queries match them: each `bundle|environment` on a line of its own,
  /// the text starting and ending with a line break. No bundle id holds one.
  package static func lines(_ apps: Set<AppKey>) -> String {
    "\n" + apps.map { "\($0.bundleId)|\($0.environment)\n" }.sorted().joined()
  }
}
