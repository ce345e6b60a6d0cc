import ReckonAppStore
import ReckonSupport

/// One app Reckon answers for, in one environment.
public struct AppConfiguration: Hashable, Sendable {
  /// The app's bundle identifier; notifications for other bundles are refused.
  public var bundleId: String
  /// The app's Apple ID; required in Production, where notifications must carry it.
  public var appAppleId: Int64?
  /// Production or Sandbox (Xcode and LocalTesting only where `trust` allows them).
  public var environment: AppStoreEnvironment
  /// The policy file that decides this app's requests.
  public var policyPath: String

  init(_ reader: ConfigurationReader, resolve: (String) -> String) throws(ConfigurationError) {
    try reader.rejectUnknownKeys(["store", "bundleId", "appAppleId", "environment", "policy"])
    bundleId = try reader.string("bundleId")
    let environmentName = try reader.optionalString("environment") ?? "Production"
    guard let environment = AppStoreEnvironment(rawValue: environmentName) else {
      throw ConfigurationError(
        reader.keyPath("environment"), "must be Production, Sandbox, Xcode or LocalTesting")
    }
    self.environment = environment
    if let number = try reader.optionalNumber("appAppleId") {
      guard let id = Int64(exactly: number), id > 0 else {
        throw ConfigurationError(reader.keyPath("appAppleId"), "must be a whole number")
      }
      appAppleId = id
    } else if environment == .production {
      throw ConfigurationError(reader.keyPath("appAppleId"), "is required in Production")
    }
    policyPath = resolve(try reader.string("policy"))
  }
}

/// One fact source: its name, its type, and the rest of its settings for the adapter to read.
public struct FactSourceConfiguration: Sendable {
  /// The name recorded as the provenance of its facts.
  public var name: String
  /// `sqlite` or `json`.
  public var type: String
  /// How long a lookup may take before the source counts as failed.
  public var timeoutSeconds: Double
  /// The whole entry, for the adapter to read its own keys with their paths.
  public var settings: ConfigurationReader
  /// The largest facts file a `json` source reads (`limits.factsFileBytes`).
  public var fileLimit: FileSizeLimit = .facts
  /// Resolves a path in the entry against the configuration's folder.
  public let resolvePath: @Sendable (String) -> String

  init(_ reader: ConfigurationReader, resolve: @escaping @Sendable (String) -> String)
    throws(ConfigurationError)
  {
    name = try reader.string("name")
    type = try reader.string("type")
    guard ["sqlite", "json"].contains(type) else {
      throw ConfigurationError(reader.keyPath("type"), "must be sqlite or json")
    }
    // Whole milliseconds, as busyTimeoutMs: 0.4 was taken, and became a limit of 0 ms.
    timeoutSeconds = Double(try reader.positiveWholeNumber("timeoutMs", default: 2_000)) / 1_000
    settings = reader
    resolvePath = resolve
  }
}
