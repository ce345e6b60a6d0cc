import Foundation

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

  /// Why no request could reach a route at `path`, or nil when one can: request targets start
  /// with '/', a path ends at '?', and the parser refuses spaces and controls in a target.
  static func unreachablePath(_ path: String) -> String? {
    guard path.hasPrefix("/") else { return "must start with /" }
    guard !path.unicodeScalars.contains(where: { $0.value <= 0x20 || $0.value == 0x7F }),
      !path.contains("?"), !path.contains("#")
    else { return "must be a path alone, without spaces, control characters, '?' or '#'" }
    return nil
  }
  /// Connections served at once; beyond it a connection of the client holding most makes room,
  /// or the longest idle, or 503 when none can.
  public var maximumConnections: Int
  /// Connections served at once from one address.
  public var maximumConnectionsPerClient: Int
  /// How long a stop (SIGTERM) may take, in seconds: in-flight requests and the loops get this
  /// long together, then the process exits whatever they are doing.
  public var shutdownGraceSeconds: Double = 9

  /// The paths the server answers itself, beside the webhook.
  static let probePaths: Set<String> = ["/healthz", "/metrics"]

  /// The smallest `maxBodyBytes` accepted.
  static let smallestBody = 64 * 1_024

  /// The largest `maxBodyBytes` accepted.
  static let largestBody = 16 * 1_024 * 1_024

  init(_ reader: ConfigurationReader?) throws(ConfigurationError) {
    try reader?.rejectUnknownKeys([
      "listen", "maxBodyBytes", "webhookPath", "maxConnections", "maxConnectionsPerClient",
      "shutdownGraceSeconds",
    ])
    let listen = try reader?.optionalString("listen") ?? "127.0.0.1:8080"
    do throws(ListenAddress.Problem) {
      (host, port) = try ListenAddress.parse(listen)
    } catch {
      throw ConfigurationError(reader?.keyPath("listen") ?? "server.listen", error.description)
    }
    maximumBodyBytes = try reader?.positiveWholeNumber("maxBodyBytes", default: 262_144) ?? 262_144
    // A signed notification carries up to three JWSs, each with its certificate chain: a limit
    // below this would refuse real ones with 413 (Apple retries, and is refused again).
    guard maximumBodyBytes >= Self.smallestBody else {
      throw ConfigurationError(
        reader?.keyPath("maxBodyBytes") ?? "server.maxBodyBytes",
        "must be at least \(Self.smallestBody) (64 KiB), so that no real notification is "
          + "refused: each carries up to three signed parts, each with its certificate chain")
    }
    // Each connection may buffer this much; Apple's notifications are a few kilobytes.
    guard maximumBodyBytes <= Self.largestBody else {
      throw ConfigurationError(
        reader?.keyPath("maxBodyBytes") ?? "server.maxBodyBytes",
        "must be at most \(Self.largestBody) (16 MiB): every connection may hold that much, and "
          + "Apple's notifications are a few kilobytes")
    }
    webhookPath = try reader?.optionalString("webhookPath") ?? "/apple/notifications"
    // Request targets always start with '/', so any other path could never match a request.
    let pathKey = reader?.keyPath("webhookPath") ?? "server.webhookPath"
    if let problem = Self.unreachablePath(webhookPath) {
      throw ConfigurationError(pathKey, problem)
    }
    // The server answers these itself, and the webhook's route is tried first: it would hide one.
    guard !Self.probePaths.contains(webhookPath) else {
      throw ConfigurationError(
        pathKey, "must not be \(webhookPath), which the server answers itself; use another path")
    }
    maximumConnections = try reader?.positiveWholeNumber("maxConnections", default: 256) ?? 256
    // No lower limit by default: behind the TLS proxy Apple's HTTPS needs, every connection
    // comes from the proxy's address. Without one, a full server still shares its connections
    // out between addresses (`ConnectionTable`).
    maximumConnectionsPerClient =
      try reader?.positiveWholeNumber("maxConnectionsPerClient", default: maximumConnections)
      ?? maximumConnections
    guard maximumConnectionsPerClient <= maximumConnections else {
      throw ConfigurationError(
        reader?.keyPath("maxConnectionsPerClient") ?? "server.maxConnectionsPerClient",
        "must be at most maxConnections (\(maximumConnections))")
    }
    shutdownGraceSeconds =
      try reader?.positiveNumber("shutdownGraceSeconds", default: 9) ?? 9
    guard shutdownGraceSeconds <= 3_600 else {
      throw ConfigurationError(
        reader?.keyPath("shutdownGraceSeconds") ?? "server.shutdownGraceSeconds",
        "must be at most 3600 (an hour)")
    }
  }
}
