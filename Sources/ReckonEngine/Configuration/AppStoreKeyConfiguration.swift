import Foundation
import ReckonAppStore

/// The App Store Connect in-app purchase key that signs requests to Apple. The key itself stays
/// in its `.p8` file; only its path is configured.
public struct AppStoreKeyConfiguration: Hashable, Sendable {
  /// The issuer ID from App Store Connect.
  public var issuerId: String
  /// The key's ID, sent as the JWT `kid`.
  public var keyId: String
  /// Where the PKCS#8 `.p8` private key is.
  public var privateKeyPath: String
  /// Overrides Apple's base URL, for a local stand-in.
  public var baseURL: String?

  init(_ reader: ConfigurationReader, resolve: (String) -> String) throws(ConfigurationError) {
    try reader.rejectUnknownKeys(["issuerId", "keyId", "privateKeyPath", "baseURL"])
    issuerId = try Self.identifier("issuerId", reader)
    // App Store Connect's issuer ids are UUIDs; anything else (the key id pasted here, a team
    // id) gets every token refused with 401.
    guard UUID(uuidString: issuerId) != nil else {
      throw ConfigurationError(
        reader.keyPath("issuerId"),
        "must be the issuer ID App Store Connect shows on its Keys page, a UUID such as "
          + "57246542-96fe-1a63-e053-0824d011072a")
    }
    keyId = try Self.identifier("keyId", reader)
    privateKeyPath = resolve(try reader.string("privateKeyPath"))
    baseURL = try reader.optionalString("baseURL")
    if let baseURL, !Self.isSafeBaseURL(baseURL) {
      throw ConfigurationError(
        reader.keyPath("baseURL"), "must be https, or http on loopback for a local stand-in")
    }
  }

  /// An id copied from App Store Connect: printable ASCII only, as App Store Connect shows its
  /// ids. A space, line break or invisible character (a zero-width space, a byte-order mark)
  /// copied with it would go into every token, and Apple would answer each with 401.
  private static func identifier(_ key: String, _ reader: ConfigurationReader)
    throws(ConfigurationError) -> String
  {
    let value = try reader.string(key)
    guard !value.isEmpty, value.utf8.allSatisfy({ (0x21...0x7E).contains($0) }) else {
      throw ConfigurationError(
        reader.keyPath(key),
        "must be the id as App Store Connect shows it, with no space, line break or invisible character"
      )
    }
    return value
  }

  /// https anywhere, or plain http only to a loopback host: the bearer token must never cross a
  /// network in clear. The host is parsed, so `http://127.0.0.1.example.com` is not loopback.
  static func isSafeBaseURL(_ text: String) -> Bool {
    guard let url = URL(string: text), let scheme = url.scheme?.lowercased(),
      let host = url.host?.lowercased(), !host.isEmpty
    else { return false }
    if scheme == "https" { return true }
    guard scheme == "http" else { return false }
    let octets = host.split(separator: ".", omittingEmptySubsequences: false)
    let isIPv4Loopback =
      octets.count == 4 && octets[0] == "127"
      && octets.allSatisfy { UInt8($0) != nil && $0.allSatisfy(\.isASCII) }
    return host == "localhost" || isIPv4Loopback || host == "::1" || host == "[::1]"
  }
}

/// How the sender paces and retries replies.
public struct SenderConfiguration: Hashable, Sendable {
  /// Requests per second per app in Production (Apple allows 50).
  public var productionRequestsPerSecond: Double
  /// Requests per second per app in Sandbox (a tenth of Production).
  public var sandboxRequestsPerSecond: Double
  /// How long before the deadline a held decision is sent as decided.
  public var holdReleaseBeforeDeadlineSeconds: Double
  /// The first retry delay after a 5xx or network error; it doubles each time, with jitter.
  public var initialBackoffSeconds: Double
  /// The longest retry delay.
  public var maximumBackoffSeconds: Double

  init(_ reader: ConfigurationReader?) throws(ConfigurationError) {
    try reader?.rejectUnknownKeys([
      "productionRequestsPerSecond", "sandboxRequestsPerSecond", "holdReleaseMinutesBeforeDeadline",
      "initialBackoffSeconds", "maximumBackoffSeconds",
    ])
    productionRequestsPerSecond =
      try reader?.positiveNumber("productionRequestsPerSecond", default: 50) ?? 50
    sandboxRequestsPerSecond =
      try reader?.positiveNumber("sandboxRequestsPerSecond", default: 5) ?? 5
    holdReleaseBeforeDeadlineSeconds =
      (try reader?.positiveNumber("holdReleaseMinutesBeforeDeadline", default: 60) ?? 60) * 60
    // A held reply goes out a fifth of the window before the deadline at the earliest; a longer
    // lead was cut to that unsaid, when the operator meant something else.
    let longestLead = AppStoreEnvironment.production.consumptionReplyWindow / 5
    guard holdReleaseBeforeDeadlineSeconds <= longestLead else {
      throw ConfigurationError(
        reader?.keyPath("holdReleaseMinutesBeforeDeadline")
          ?? "sender.holdReleaseMinutesBeforeDeadline",
        "must be at most \(Int(longestLead / 60)) (a fifth of the 12-hour reply window), so a "
          + "held reply waits for review most of the window")
    }
    initialBackoffSeconds = try reader?.positiveNumber("initialBackoffSeconds", default: 30) ?? 30
    maximumBackoffSeconds =
      try reader?.positiveNumber("maximumBackoffSeconds", default: 1_800) ?? 1_800
    guard maximumBackoffSeconds >= initialBackoffSeconds else {
      // Named at the key the operator wrote: the maximum may be the default.
      guard try reader?.optionalNumber("maximumBackoffSeconds") != nil else {
        throw ConfigurationError(
          reader?.keyPath("initialBackoffSeconds") ?? "sender.initialBackoffSeconds",
          "must be at most maximumBackoffSeconds (\(Self.plain(maximumBackoffSeconds)), the "
            + "default)")
      }
      throw ConfigurationError(
        reader?.keyPath("maximumBackoffSeconds") ?? "sender.maximumBackoffSeconds",
        "must be at least initialBackoffSeconds (\(Self.plain(initialBackoffSeconds)))")
    }
  }
}

extension SenderConfiguration {
  /// A setting as written in JSON: `1800`, `0.5`, never `1,800`.
  fileprivate static func plain(_ value: Double) -> String {
    value.rounded() == value && abs(value) < 1e15 ? String(Int(value)) : String(value)
  }
}

/// Where and how `reckon serve` listens.
public struct ServerConfiguration: Hashable, Sendable {
  /// The address, e.g. `127.0.0.1`.
  public var host: String
  /// The port.
  public var port: Int
  /// The largest request body accepted.
  public var maximumBodyBytes: Int
  /// The path Apple posts notifications to.
  public var webhookPath: String
  /// Connections served at once; beyond it the longest idle makes room, or 503 when none is.
  public var maximumConnections: Int
  /// Connections served at once from one address.
  public var maximumConnectionsPerClient: Int

  /// The largest `maxBodyBytes` accepted.
  static let largestBody = 16 * 1_024 * 1_024

  init(_ reader: ConfigurationReader?) throws(ConfigurationError) {
    try reader?.rejectUnknownKeys([
      "listen", "maxBodyBytes", "webhookPath", "maxConnections", "maxConnectionsPerClient",
    ])
    let listen = try reader?.optionalString("listen") ?? "127.0.0.1:8080"
    do throws(ListenAddress.Problem) {
      (host, port) = try ListenAddress.parse(listen)
    } catch {
      throw ConfigurationError(reader?.keyPath("listen") ?? "server.listen", error.description)
    }
    maximumBodyBytes = try reader?.positiveWholeNumber("maxBodyBytes", default: 262_144) ?? 262_144
    // Each connection may buffer this much; Apple's notifications are a few kilobytes.
    guard maximumBodyBytes <= Self.largestBody else {
      throw ConfigurationError(
        reader?.keyPath("maxBodyBytes") ?? "server.maxBodyBytes",
        "must be at most \(Self.largestBody) (16 MiB): every connection may hold that much, and "
          + "Apple's notifications are a few kilobytes")
    }
    webhookPath = try reader?.optionalString("webhookPath") ?? "/apple/notifications"
    // Request targets always start with '/', so any other path could never match a request.
    guard webhookPath.hasPrefix("/") else {
      throw ConfigurationError(
        reader?.keyPath("webhookPath") ?? "server.webhookPath", "must start with /")
    }
    maximumConnections = try reader?.positiveWholeNumber("maxConnections", default: 256) ?? 256
    // No lower limit by default: behind the TLS proxy Apple's HTTPS needs, every connection
    // comes from the proxy's address.
    maximumConnectionsPerClient =
      try reader?.positiveWholeNumber("maxConnectionsPerClient", default: maximumConnections)
      ?? maximumConnections
    guard maximumConnectionsPerClient <= maximumConnections else {
      throw ConfigurationError(
        reader?.keyPath("maxConnectionsPerClient") ?? "server.maxConnectionsPerClient",
        "must be at most maxConnections (\(maximumConnections))")
    }
  }
}

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
