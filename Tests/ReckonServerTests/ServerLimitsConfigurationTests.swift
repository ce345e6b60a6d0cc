import Foundation
import ReckonAppStore
import ReckonEngine
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

  @Test func maxConnectionsIsRead() throws {
    #expect(try Self.load(server: #"{"maxConnections": 32}"#).maximumConnections == 32)
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
