/// The server environment a payload belongs to.
public enum AppStoreEnvironment: String, Codable, Hashable, Sendable, CaseIterable {
  /// Apple's sandbox environment.
  case sandbox = "Sandbox"
  /// The live App Store.
  case production = "Production"
  /// StoreKit testing in Xcode; its payloads are self-signed and carry fractional dates.
  case xcode = "Xcode"
  /// Apple's libraries' own local test environment.
  case localTesting = "LocalTesting"
}
