import Foundation
import ReckonAppStore
import ReckonTestSupport
import Testing

/// Apple's notifications without `data` (a renewal-extension summary, a sandbox external
/// purchase token, a rescinded consent), signed now and POSTed over HTTP: answered 200 and
/// counted as acknowledged, nothing sent; another app's are still refused 403.
struct DatalessNotificationEndToEndTests {
  /// Apple's example `fixture`, under a new UUID and signed now, for `bundleId` in Sandbox (the
  /// token is a SANDBOX one already).
  static func body(
    _ fixture: String, block: String, bundleId: String = TestKey.bundleId, _ server: ServerFixture
  ) throws -> Data {
    let url = AppleFixtures.url("\(fixture).json")
    var payload = try #require(
      try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
    var app = try #require(payload[block] as? [String: Any])
    app["bundleId"] = bundleId
    if app["environment"] != nil { app["environment"] = "Sandbox" }
    payload[block] = app
    payload["notificationUUID"] = UUID().uuidString.lowercased()
    payload["signedDate"] = Int64(Date().timeIntervalSince1970 * 1_000)
    let signed = try server.authority.sign(
      payload: try JSONSerialization.data(withJSONObject: payload))
    return Data(#"{"signedPayload":"\#(signed)"}"#.utf8)
  }

  static let examples = [
    ("signedSummaryNotification", "summary", "RENEWAL_EXTENSION"),
    (
      "signedExternalPurchaseTokenSandboxNotification", "externalPurchaseToken",
      "EXTERNAL_PURCHASE_TOKEN"
    ),
    ("signedRescindConsentNotification", "appData", "RESCIND_CONSENT"),
  ]

  @Test func eachIsAnswered200AndNothingIsSent() async throws {
    let fixture = try ServerFixture()
    var answers: [(Int, String)] = []
    for (name, block, _) in Self.examples {
      answers.append(try await fixture.post(try Self.body(name, block: block, fixture)))
    }
    let other = try await fixture.post(
      try Self.body("signedSummaryNotification", block: "summary", bundleId: "com.other", fixture))
    let (_, metrics) = try await fixture.get("/metrics")
    try await Task.sleep(nanoseconds: 200_000_000)
    await fixture.stop()

    for (status, answer) in answers {
      #expect(status == 200, "\(answer)")
      #expect(answer.contains(#""result":"acknowledged""#), "\(answer)")
    }
    #expect(other.0 == 403, "\(other.1)")
    #expect(other.1.contains("bundle id com.other is not \(TestKey.bundleId)"), "\(other.1)")
    #expect(fixture.standIn.requests.isEmpty)
    #expect(try fixture.service.store.entries().isEmpty)
    for (_, _, type) in Self.examples {
      let line =
        #"reckon_webhook_requests_total{type="\#(type)",verdict="acknowledged",status="200"} 1"#
      #expect(metrics.contains(line), "missing: \(line)")
    }
  }
}
