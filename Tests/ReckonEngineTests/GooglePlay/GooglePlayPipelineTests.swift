import Foundation
import ReckonEngine
import ReckonFacts
import ReckonGooglePlay
import ReckonPolicy
import ReckonState
import ReckonStateSQLite
import ReckonTestSupport
import Testing

/// The Google Play pipeline from parts: a review whose facts cannot be read now is recorded,
/// answered 200 and decided by the retry pass once they can.
@Suite struct GooglePlayPipelineTests {
  static let identity = try! LocalGoogleIdentity()
  static let audience = "https://reckon.example.com/google/rtdn"
  static let email = "play-push@example-project.iam.gserviceaccount.com"

  /// Facts that fail until told to answer.
  final class Flaky: FactSource, @unchecked Sendable {
    let name = "app"
    private let lock = NSLock()
    private var up = false
    func comeUp() { lock.withLock { up = true } }
    func facts(for keys: RequestKeys) async throws -> [String: Value] {
      guard lock.withLock({ up }) else { throw Down() }
      return [
        "customer.consented": .boolean(true), "product.sample_offered": .boolean(true),
        "delivery.status": .enumeration(0), "usage.consumed": .percent(10),
      ]
    }
    struct Down: Error {}
  }

  /// Answers after a minute, long past any timeout here.
  struct Sleeper: FactSource {
    let name = "play-crm"
    func facts(for keys: RequestKeys) async throws -> [String: Value] {
      try await Task.sleep(for: .seconds(60))
      return [:]
    }
  }

  func service(
    facts: Flaky, googlePlayFacts: [LayeredFactSource.Layer]? = nil,
    keys: GoogleSigningKeys? = nil
  ) throws -> ReckonService {
    try ReckonService(
      apps: [], factSources: [.init(facts, timeout: .seconds(1))],
      state: try SQLiteStateStore(
        path: TestScratch.folder.appendingPathComponent("gp-\(UUID()).sqlite").path,
        rules: .stores),
      googlePlay: .init(
        apps: [
          .init(
            packageName: "com.example.play", policy: .text(name: "p", "otherwise refund NEUTRAL"))
        ],
        verifier: PushTokenVerifier(
          expected: PushTokenExpectations(audience: Self.audience, serviceAccountEmail: Self.email),
          keys: try keys ?? GoogleSigningKeys(.fixed(Self.identity.keySet()))),
        factSources: googlePlayFacts))
  }

  func push(_ service: ReckonService) async throws -> WebhookAnswer {
    let notification = DeveloperNotification(
      packageName: "com.example.play", eventTime: Date(),
      kind: .pendingRefundReview(
        PendingRefundReviewNotification(pendingRefundToken: "prt", orderId: "GPA.1")))
    let (body, authorization) = try Self.identity.push(
      notification, audience: Self.audience, email: Self.email)
    return await service.answerGooglePlay(body: body, authorization: authorization)
  }

  /// Keys this side cannot load are no fault of the push: it is answered 503, naming why, so
  /// Pub/Sub delivers it again once they load, and nothing is recorded meanwhile.
  @Test func aPushWhileGooglesKeysDoNotLoadIs503NamingWhy() async throws {
    let path = TestScratch.folder.appendingPathComponent("keys-\(UUID()).json").path
    try Data("garbage".utf8).write(to: URL(fileURLWithPath: path))
    let service = try service(facts: Flaky(), keys: GoogleSigningKeys(.file(path)))
    let refused = try await push(service)
    #expect(refused.status == 503)
    let said = String(decoding: refused.body, as: UTF8.self)
    #expect(said.contains("Google's keys are not at hand"), "\(said)")
    #expect(said.contains(path), "\(said)")
    try Self.identity.keySet().json().write(to: URL(fileURLWithPath: path))
    let answered = try await push(service)
    #expect(answered.status == 200, "\(String(decoding: answered.body, as: UTF8.self))")
  }

  @Test func aReviewWhoseFactsAreDownIsDecidedByTheRetryOnceTheyAnswer() async throws {
    let facts = Flaky()
    let service = try service(facts: facts)
    let first = try await push(service)
    #expect(first.status == 200)
    #expect(first.verdict == .deferred)
    #expect(await service.retryUndecided(olderThan: 0) == 0)
    facts.comeUp()
    // The failed retry put the next one off; a reload makes it due again.
    try service.store.makeRetriesDue()
    #expect(await service.retryUndecided(olderThan: 0) == 1)
    let entry = try #require(try service.store.entries().first)
    #expect(entry.app == AppKey(bundleId: "com.example.play", environment: "GooglePlay"))
    #expect(
      String(decoding: entry.body, as: UTF8.self)
        == #"{"consumptionPercentageMilliunits":10000,"pendingRefundToken":"prt","refundPreference":"NEUTRAL","sampleContentProvided":true}"#
    )
  }

  @Test func aHungSourceOfGooglePlayAloneIsToldAsHung() async throws {
    let service = try service(
      facts: Flaky(), googlePlayFacts: [.init(Sleeper(), timeout: .milliseconds(50))])
    #expect(service.hungFactSources.isEmpty)
    let answer = try await push(service)
    #expect(answer.verdict == .deferred)
    #expect(service.hungFactSources == ["play-crm"])
    #expect(service.factSourcesHung == ["app": false, "play-crm": true])
  }

  @Test func withoutGooglePlayAppsAPushIsRefused() async throws {
    let service = try ReckonService(
      apps: [
        .init(
          bundleId: "com.example.coins", appAppleId: nil, environment: .sandbox,
          policy: .text(name: "p", "otherwise refund DECLINE"))
      ], factSources: [],
      state: try SQLiteStateStore(
        path: TestScratch.folder.appendingPathComponent("gp-\(UUID()).sqlite").path,
        rules: .stores))
    let answer = await service.answerGooglePlay(body: Data("{}".utf8), authorization: nil)
    #expect(answer.status == 404)
  }

  @Test func withoutAppStoreAppsANotificationIsRefused() async throws {
    let service = try service(facts: Flaky())
    let answer = await service.answer(body: Data(#"{"signedPayload":"x.y.z"}"#.utf8))
    #expect(answer.status == 404)
    #expect(String(decoding: answer.body, as: UTF8.self).contains("no App Store app is configured"))
    #expect(await service.handleNotification(body: Data("{}".utf8)).status == 404)
  }
}
