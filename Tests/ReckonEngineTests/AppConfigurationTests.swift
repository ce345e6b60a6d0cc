import Foundation
import ReckonAppStore
import ReckonEngine
import ReckonSupport
import Testing

/// The `apps` list of `reckon.json`: one entry per bundle id and environment.
struct AppConfigurationTests {
  static func load(_ apps: String) throws(ConfigurationError) -> ReckonConfiguration {
    let root = (try? JSONValue.parse(Data(#"{"apps": \#(apps)}"#.utf8)).objectValue) ?? [:]
    return try ReckonConfiguration(ConfigurationReader(root, path: ""), baseDirectory: "/tmp")
  }

  @Test func twoEntriesForOneAppAndEnvironmentAreAnErrorNamingBoth() throws {
    let error = #expect(throws: ConfigurationError.self) {
      try Self.load(
        """
        [{"bundleId": "com.example", "environment": "Sandbox", "policy": "a.policy"},
         {"bundleId": "com.other", "environment": "Sandbox", "policy": "b.policy"},
         {"bundleId": "com.example", "environment": "Sandbox", "policy": "c.policy"}]
        """)
    }
    #expect(
      error?.description
        == "apps[2]: bundle id 'com.example' in Sandbox is already configured by apps[0]; each app and environment may be listed once"
    )
  }

  @Test(arguments: [("Xcode", "allowXcode"), ("LocalTesting", "allowLocalTesting")])
  func anAppInAnUnsignedEnvironmentNeedsTrustToLetItsNotificationsIn(
    _ environment: String, _ key: String
  ) throws {
    let app =
      #"[{"bundleId": "com.example", "environment": "\#(environment)", "policy": "a.policy"}]"#
    let error = #expect(throws: ConfigurationError.self) { try Self.load(app) }
    #expect(
      error?.description.hasPrefix("apps[0].environment: ") == true, "\(String(describing: error))")
    #expect(error?.description.contains("trust.\(key)") == true)
    let root =
      (try? JSONValue.parse(Data(#"{"apps": \#(app), "trust": {"\#(key)": true}}"#.utf8))
        .objectValue)
      ?? [:]
    let allowed = try ReckonConfiguration(
      ConfigurationReader(root, path: ""), baseDirectory: "/tmp")
    #expect(allowed.apps.count == 1)
  }

  @Test func oneBundleInTwoEnvironmentsIsTwoApps() throws {
    let configuration = try Self.load(
      """
      [{"bundleId": "com.example", "environment": "Sandbox", "policy": "a.policy"},
       {"bundleId": "com.example", "environment": "Production", "appAppleId": 1, "policy": "b.policy"}]
      """)
    #expect(configuration.apps.map(\.environment) == [.sandbox, .production])
  }

  /// A number too large for the setting's whole-number form, at its key.
  @Test(arguments: [
    (#"{"apps": [{"bundleId": "b", "appAppleId": 1e30, "policy": "p"}]}"#, "apps[0].appAppleId"),
    (#"{"apps": [{"bundleId": "b", "appAppleId": 1.5, "policy": "p"}]}"#, "apps[0].appAppleId"),
    (
      #"{"apps": [{"bundleId": "b", "environment": "Sandbox", "policy": "p"}], "server": {"maxBodyBytes": 1e30}}"#,
      "server.maxBodyBytes"
    ),
    (
      #"{"apps": [{"bundleId": "b", "environment": "Sandbox", "policy": "p"}], "sender": {"initialBackoffSeconds": 1e300}}"#,
      "sender.initialBackoffSeconds"
    ),
  ])
  func aHugeNumberIsAnErrorAtItsKeyNotACrash(_ json: String, _ key: String) throws {
    let root = try #require(try JSONValue.parse(Data(json.utf8)).objectValue)
    let error = #expect(throws: ConfigurationError.self) {
      try ReckonConfiguration(ConfigurationReader(root, path: ""), baseDirectory: "/tmp")
    }
    #expect(error?.key == key)
  }
}
