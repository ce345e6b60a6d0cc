import Foundation
import ReckonAppStore
import ReckonEngine
import ReckonSupport
import Testing

@testable import ReckonTools

/// Which requests a dry-run counts as for the configured apps, with one app (compared directly)
/// and with several (looked up).
struct ConfiguredAppsTests {
  static func configuration(_ apps: [(String, String)]) throws -> ReckonConfiguration {
    let policy = DryRunFixture.policyPath("targeted")
    let listed = apps.map { bundleId, environment in
      #"{"bundleId": "\#(bundleId)", "appAppleId": 1234567890, "environment": "\#(environment)", "policy": "\#(policy)"}"#
    }
    let root = try #require(
      try JSONValue.parse(Data(#"{"apps": [\#(listed.joined(separator: ","))]}"#.utf8))
        .objectValue)
    return try ReckonConfiguration(ConfigurationReader(root, path: ""), baseDirectory: "/")
  }

  static func request(_ bundleId: String, _ environment: String, appAppleId: Int64? = 1_234_567_890)
    -> RefundRequest
  {
    var notification = ResponseBodyV2DecodedPayload()
    var data = NotificationData()
    data.bundleId = bundleId
    data.rawEnvironment = environment
    data.appAppleId = appAppleId
    notification.data = data
    return RefundRequest(
      notification: notification, transaction: JWSTransactionDecodedPayload(),
      receivedAt: Date())
  }

  @Test(arguments: [
    ("com.a", "Production", true), ("com.a", "Sandbox", false), ("com.b", "Production", false),
  ])
  func withOneAppOnlyItsBundleAndEnvironmentAreListed(
    bundleId: String, environment: String, listed: Bool
  ) throws {
    let apps = try #require(ConfiguredApps(try Self.configuration([("com.a", "Production")])))
    #expect(apps.contains(Self.request(bundleId, environment)) == listed)
  }

  @Test(arguments: [
    ("com.a", "Production", true), ("com.b", "Sandbox", true), ("com.b", "Production", false),
    ("com.c", "Sandbox", false),
  ])
  func withSeveralAppsEachListedPairIsListed(bundleId: String, environment: String, listed: Bool)
    throws
  {
    let apps = try #require(
      ConfiguredApps(try Self.configuration([("com.a", "Production"), ("com.b", "Sandbox")])))
    #expect(apps.contains(Self.request(bundleId, environment)) == listed)
  }

  @Test(
    arguments: [
      ("Production", 1_234_567_890, true), ("Production", 987, false), ("Production", nil, false),
      ("Sandbox", 987, true), ("Sandbox", nil, true),
    ] as [(String, Int64?, Bool)])
  func aProductionRequestForAnotherAppleIdIsNotListedAsServeRefusesIt(
    environment: String, appAppleId: Int64?, listed: Bool
  ) throws {
    let one = try #require(ConfiguredApps(try Self.configuration([("com.a", environment)])))
    let several = try #require(
      ConfiguredApps(try Self.configuration([("com.a", environment), ("com.b", "Production")])))
    let request = Self.request("com.a", environment, appAppleId: appAppleId)
    #expect(one.contains(request) == listed)
    #expect(several.contains(request) == listed)
  }
}
