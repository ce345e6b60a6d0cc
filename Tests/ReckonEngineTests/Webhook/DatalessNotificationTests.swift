import Foundation
import ReckonAppStore
import ReckonTestSupport
import Testing

@testable import ReckonEngine
@testable import ReckonStateSQLite

/// Notifications that carry `summary`, `externalPurchaseToken` or `appData` instead of `data`
/// (Apple's own examples, made out to the fixture's app and signed now) are acknowledged with 200
/// and never decided or queued; another app's are refused as before.
struct DatalessNotificationTests {
  enum Shape: String, CaseIterable, CustomTestStringConvertible {
    case summary, externalPurchaseToken, appData

    var testDescription: String { rawValue }

    /// Apple's example payload, in Tests/Fixtures/apple.
    var fixture: String {
      switch self {
      case .summary: "signedSummaryNotification"
      case .externalPurchaseToken: "signedExternalPurchaseTokenNotification"
      case .appData: "signedRescindConsentNotification"
      }
    }

    /// Apple's example, under a new UUID and signed now, for `bundleId` (App Apple ID
    /// 1234567890) in Production; `environment` sets the environment of the shapes that say it.
    func payload(bundleId: String = "com.example.coins", environment: String = "Production")
      throws -> [String: Any]
    {
      let url = AppleFixtures.url("\(fixture).json")
      var payload = try #require(
        try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
      var app = try #require(payload[rawValue] as? [String: Any])
      app["bundleId"] = bundleId
      app["appAppleId"] = 1_234_567_890
      // A token says no environment: its externalPurchaseId does (Production without SANDBOX).
      if self != .externalPurchaseToken { app["environment"] = environment }
      payload[rawValue] = app
      payload["notificationUUID"] = UUID().uuidString.lowercased()
      payload["signedDate"] = Int64(Date().timeIntervalSince1970 * 1_000)
      return payload
    }

    /// The type Apple's example has.
    var notificationType: String {
      switch self {
      case .summary: "RENEWAL_EXTENSION"
      case .externalPurchaseToken: "EXTERNAL_PURCHASE_TOKEN"
      case .appData: "RESCIND_CONSENT"
      }
    }
  }

  /// The body Apple would POST for `payload`, signed by the fixture's CA.
  static func body(_ payload: [String: Any], _ fixture: WebhookFixture) throws -> Data {
    let signed = try fixture.authority.sign(
      payload: try JSONSerialization.data(withJSONObject: payload))
    return Data(#"{"signedPayload":"\#(signed)"}"#.utf8)
  }

  /// How many notifications of any kind are recorded.
  static func recorded(_ fixture: WebhookFixture) throws -> Int {
    Int(
      try fixture.store.connection.query("SELECT COUNT(*) FROM requests").first?.int(0) ?? 0)
  }

  @Test(arguments: Shape.allCases)
  func isAcknowledgedAndNeitherDecidedNorQueued(shape: Shape) async throws {
    let fixture = try WebhookFixture()
    let body = try Self.body(try shape.payload(), fixture)
    let answer = await fixture.service.answer(body: body)
    #expect(answer.status == 200, "\(String(decoding: answer.body, as: UTF8.self))")
    #expect(answer.verdict == .acknowledged)
    #expect(answer.notificationType == shape.notificationType)
    #expect(try Self.recorded(fixture) == 1)
    #expect(try !fixture.store.hasDecision(requestId: 1))
    #expect(try fixture.store.entries().isEmpty)
    #expect(try fixture.store.undecidedRequests(before: .distantFuture, now: Date()).isEmpty)
    // Apple's retry of it is a duplicate, still nothing to decide.
    let again = await fixture.service.answer(body: body)
    #expect(again.status == 200)
    #expect(again.verdict == .duplicate)
    #expect(try Self.recorded(fixture) == 1)
    #expect(await fixture.service.pipeline.retryUndecided(olderThan: 0) == 0)
    #expect(try fixture.store.entries().isEmpty)
  }

  @Test(arguments: Shape.allCases)
  func anotherAppsIsRefusedAndNotRecorded(shape: Shape) async throws {
    let fixture = try WebhookFixture()
    let answer = await fixture.service.answer(
      body: try Self.body(try shape.payload(bundleId: "com.example.other"), fixture))
    #expect(answer.status == 403)
    #expect(answer.verdict == .refused)
    #expect(answer.notificationType == shape.notificationType)
    #expect(
      WebhookFixture.fields(answer)["error"]
        == "bundle id com.example.other is not com.example.coins")
    #expect(try Self.recorded(fixture) == 0)
    #expect(try fixture.store.entries().isEmpty)
  }

  @Test(arguments: [Shape.summary, .appData])
  func anotherEnvironmentsIsRefused(shape: Shape) async throws {
    let fixture = try WebhookFixture()
    let answer = await fixture.service.answer(
      body: try Self.body(try shape.payload(environment: "Sandbox"), fixture))
    #expect(answer.status == 403)
    #expect(WebhookFixture.fields(answer)["error"] == "environment Sandbox is not Production")
    #expect(try Self.recorded(fixture) == 0)
  }

  /// A token's environment is in its externalPurchaseId: a SANDBOX one is refused by a
  /// Production service and acknowledged by a Sandbox one.
  @Test func aSandboxTokenIsAcknowledgedOnlyInTheSandbox() async throws {
    var payload = try Shape.externalPurchaseToken.payload()
    var token = try #require(payload["externalPurchaseToken"] as? [String: Any])
    token["externalPurchaseId"] = "SANDBOX_b2158121-7af9-49d4-9561-1f588205523e"
    payload["externalPurchaseToken"] = token
    let production = try WebhookFixture()
    let refused = await production.service.answer(body: try Self.body(payload, production))
    #expect(refused.status == 403)
    #expect(WebhookFixture.fields(refused)["error"] == "environment Sandbox is not Production")
    let sandbox = try WebhookFixture(environments: [.sandbox])
    let acknowledged = await sandbox.service.answer(body: try Self.body(payload, sandbox))
    #expect(acknowledged.status == 200)
    #expect(acknowledged.verdict == .acknowledged)
    #expect(try sandbox.store.entries().isEmpty)
  }

  @Test func aNotificationNamingNoAppIsRefused400SayingWhy() async throws {
    let fixture = try WebhookFixture()
    var payload = try Shape.appData.payload()
    payload["appData"] = nil
    let answer = await fixture.service.answer(body: try Self.body(payload, fixture))
    #expect(answer.status == 400)
    #expect(answer.verdict == .refused)
    #expect(answer.notificationType == "RESCIND_CONSENT")
    #expect(
      WebhookFixture.fields(answer)["error"]
        == "the notification carries none of data, summary, externalPurchaseToken or appData, so it names no app"
    )
    #expect(try Self.recorded(fixture) == 0)
  }
}
