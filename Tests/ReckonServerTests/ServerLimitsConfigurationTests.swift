import Foundation
import ReckonAppStore
import ReckonEngine
import ReckonHTTP
import ReckonServer
import ReckonSupport
import Testing

/// The `server` section's limits: defaults, overrides and refusals naming the key.
@Suite struct ServerLimitsConfigurationTests {
  static func load(server: String) throws(ConfigurationError) -> ServerConfiguration {
    let json = """
      {"apps": [{"bundleId": "com.example", "environment": "Sandbox", "policy": "p.policy"}],
       "server": \(server)}
      """
    let root = (try? JSONValue.parse(Data(json.utf8)).objectValue) ?? [:]
    return try ReckonConfiguration(
      ConfigurationReader(root, path: "reckon.json"), baseDirectory: "/tmp"
    ).server
  }

  @Test func connectionAndBodyLimitsDefaultTo256And256KiB() throws {
    let server = try Self.load(server: "{}")
    #expect(server.maximumConnections == 256)
    #expect(server.maximumBodyBytes == 262_144)
  }

  @Test func theShutdownGraceIsNineSecondsUnlessConfigured() throws {
    #expect(try Self.load(server: "{}").shutdownGraceSeconds == 9)
    #expect(
      try Self.load(server: #"{"shutdownGraceSeconds": 25}"#).shutdownGraceSeconds == 25)
  }

  @Test func maxConnectionsIsRead() throws {
    #expect(try Self.load(server: #"{"maxConnections": 32}"#).maximumConnections == 32)
  }

  /// One client may hold every connection unless told otherwise (behind a proxy, all come from
  /// its address), and never more than the server takes.
  @Test(arguments: [
    (#"{}"#, 256), (#"{"maxConnections": 32}"#, 32),
    (#"{"maxConnections": 32, "maxConnectionsPerClient": 8}"#, 8),
    (#"{"maxConnectionsPerClient": 64}"#, 64),
  ])
  func theShareOfOneClientIsEveryConnectionUnlessSet(server: String, share: Int) throws {
    #expect(try Self.load(server: server).maximumConnectionsPerClient == share)
  }

  @Test func theListenerGetsTheSectionsLimits() throws {
    let listener = HTTPServer.Configuration(
      try Self.load(
        server:
          #"{"listen": "0.0.0.0:9", "maxBodyBytes": 65536, "maxConnections": 40, "maxConnectionsPerClient": 5}"#
      ))
    #expect(listener.host == "0.0.0.0")
    #expect(listener.port == 9)
    #expect(listener.limits.maximumBodyBytes == 65536)
    #expect(listener.maximumConnections == 40)
    #expect(listener.maximumConnectionsPerClient == 5)
  }

  @Test(arguments: ["0", "-1", #""many""#])
  func aMaxConnectionsThatIsNotAPositiveNumberIsRefusedNamingTheKey(value: String) {
    #expect {
      _ = try Self.load(server: #"{"maxConnections": \#(value)}"#)
    } throws: { error in
      "\(error)".contains("server.maxConnections")
    }
  }
}

/// `server` values that would be accepted and then never work are refused, naming the key.
struct ServerValueRefusalTests {
  struct Case: CustomTestStringConvertible, Sendable {
    let server: String
    let message: String
    var testDescription: String { server }
  }

  @Test(arguments: [
    Case(server: #"{"webhookPath": "no-slash"}"#, message: "server.webhookPath: must start with /"),
    Case(
      server: #"{"webhookPath": "/healthz"}"#,
      message:
        "server.webhookPath: must not be /healthz, which the server answers itself; use another path"
    ),
    Case(
      server: #"{"webhookPath": "/metrics"}"#,
      message:
        "server.webhookPath: must not be /metrics, which the server answers itself; use another path"
    ),
    Case(
      server: #"{"webhookPath": "/apple notifications"}"#,
      message:
        "server.webhookPath: must be a path alone, without spaces, control characters, '?' or '#'"),
    Case(
      server: #"{"webhookPath": "/apple?key=1"}"#,
      message:
        "server.webhookPath: must be a path alone, without spaces, control characters, '?' or '#'"),
    Case(server: #"{"maxBodyBytes": 1.5}"#, message: "server.maxBodyBytes: must be a whole number"),
    Case(
      server: #"{"maxConnections": 2.5}"#, message: "server.maxConnections: must be a whole number"),
    Case(
      server: #"{"shutdownGraceSeconds": 7200}"#,
      message: "server.shutdownGraceSeconds: must be at most 3600 (an hour)"),
    Case(
      server: #"{"maxConnections": 16, "maxConnectionsPerClient": 17}"#,
      message: "server.maxConnectionsPerClient: must be at most maxConnections (16)"),
    Case(
      server: #"{"listen": "localhost:8080"}"#,
      message: "server.listen: 'localhost' is not an IPv4 address such as 127.0.0.1 or 0.0.0.0"),
    Case(
      server: #"{"listen": "8080"}"#,
      message: "server.listen: must be HOST:PORT, e.g. 127.0.0.1:8080"),
    Case(
      server: #"{"listen": "127.0.0.1:99999"}"#,
      message: "server.listen: port 99999 is out of range: use 1-65535 (0 lets the system pick)"),
    Case(
      server: #"{"maxBodyBytes": 16384}"#,
      message:
        "server.maxBodyBytes: must be at least 65536 (64 KiB), so that no real notification is refused: each carries up to three signed parts, each with its certificate chain"
    ),
    Case(
      server: #"{"maxBodyBytes": 1000000000}"#,
      message:
        "server.maxBodyBytes: must be at most 16777216 (16 MiB): every connection may hold that much, and Apple's notifications are a few kilobytes"
    ),
  ])
  func aValueThatCouldNeverWorkIsRefusedAtItsKey(_ example: Case) throws {
    let json = """
      {"apps": [{"bundleId": "com.example", "environment": "Sandbox", "policy": "p.policy"}],
       "server": \(example.server)}
      """
    let root = try #require(try JSONValue.parse(Data(json.utf8)).objectValue)
    let error = #expect(throws: ConfigurationError.self) {
      try ReckonConfiguration(ConfigurationReader(root, path: ""), baseDirectory: "/tmp")
    }
    #expect(error?.description == example.message)
  }

  @Test func aWholeNumberWrittenWithAPointIsAccepted() throws {
    #expect(
      try ServerLimitsConfigurationTests.load(server: #"{"maxBodyBytes": 65536.0}"#)
        .maximumBodyBytes
        == 65536)
  }

  @Test func aFractionalBusyTimeoutIsRefusedAtItsKey() throws {
    let json = """
      {"apps": [{"bundleId": "com.example", "environment": "Sandbox", "policy": "p.policy"}],
       "factSources": [{"name": "db", "type": "sqlite", "path": "/tmp/none.sqlite", "busyTimeoutMs": 0.5}]}
      """
    let root = try #require(try JSONValue.parse(Data(json.utf8)).objectValue)
    let configuration = try ReckonConfiguration(
      ConfigurationReader(root, path: ""), baseDirectory: "/tmp")
    let error = #expect(throws: ConfigurationError.self) {
      _ = try FactSourceSetup(configuration.factSources)
    }
    #expect(error?.description == "factSources[0].busyTimeoutMs: must be a whole number")
  }
}

/// `sender` values that would be quietly changed into something else are refused, naming the
/// key.
struct SenderValueRefusalTests {
  @Test(arguments: [
    (
      #"{"holdReleaseMinutesBeforeDeadline": 700}"#,
      "sender.holdReleaseMinutesBeforeDeadline: must be at most 144 (a fifth of the 12-hour reply window), so a held reply waits for review most of the window"
    ),
    (
      #"{"initialBackoffSeconds": 60, "maximumBackoffSeconds": 10}"#,
      "sender.maximumBackoffSeconds: must be at least initialBackoffSeconds (60)"
    ),
    (
      #"{"initialBackoffSeconds": 3600}"#,
      "sender.initialBackoffSeconds: must be at most maximumBackoffSeconds (1800, the default)"
    ),
    (
      #"{"maximumConcurrentSends": 1000}"#,
      "sender.maximumConcurrentSends: must be at most 256: each send in flight holds a connection to Apple, and Apple allows 50 requests a second per app"
    ),
    (#"{"maximumConcurrentSends": 0}"#, "sender.maximumConcurrentSends: must be greater than 0"),
    (#"{"maximumConcurrentSends": 2.5}"#, "sender.maximumConcurrentSends: must be a whole number"),
    (
      #"{"sendLeaseSeconds": 43200}"#,
      "sender.sendLeaseSeconds: must be from 10 to 3600: longer than Apple takes to answer, and well inside the 12 hours Apple gives for a reply"
    ),
  ])
  func aValueThatWouldBeQuietlyChangedIsRefused(sender: String, message: String) throws {
    let json = """
      {"apps": [{"bundleId": "com.example", "environment": "Sandbox", "policy": "p.policy"}],
       "sender": \(sender)}
      """
    let root = try #require(try JSONValue.parse(Data(json.utf8)).objectValue)
    let error = #expect(throws: ConfigurationError.self) {
      try ReckonConfiguration(ConfigurationReader(root, path: ""), baseDirectory: "/tmp")
    }
    #expect(error?.description == message)
  }

  @Test func theLongestHoldLeadAndEqualBackoffsAreAccepted() throws {
    let json = """
      {"apps": [{"bundleId": "com.example", "environment": "Sandbox", "policy": "p.policy"}],
       "sender": {"holdReleaseMinutesBeforeDeadline": 144, "initialBackoffSeconds": 30,
                  "maximumBackoffSeconds": 30}}
      """
    let root = try #require(try JSONValue.parse(Data(json.utf8)).objectValue)
    let sender = try ReckonConfiguration(ConfigurationReader(root, path: ""), baseDirectory: "/tmp")
      .sender
    #expect(sender.holdReleaseBeforeDeadlineSeconds == 144 * 60)
    #expect(sender.sendLeaseSeconds == 300, "the default send lease")
  }

  @Test(arguments: [(#"{}"#, 8), (#"{"maximumConcurrentSends": 24}"#, 24)])
  func theSendsInFlightAreConfigurableAndEightByDefault(sender: String, sends: Int) throws {
    let json = """
      {"apps": [{"bundleId": "com.example", "environment": "Sandbox", "policy": "p.policy"}],
       "sender": \(sender)}
      """
    let root = try #require(try JSONValue.parse(Data(json.utf8)).objectValue)
    let configuration = try ReckonConfiguration(
      ConfigurationReader(root, path: ""), baseDirectory: "/tmp"
    ).sender
    #expect(configuration.maximumConcurrentSends == sends)
  }
}
