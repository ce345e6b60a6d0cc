import Foundation
import ReckonEngine
import ReckonGooglePlay
import ReckonHTTP
import ReckonServer
import ReckonStandIn
import ReckonState
import ReckonStateSQLite
import ReckonSupport
import ReckonTestSupport
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// A Google Play review end to end, from reckon.json: Pub/Sub pushes it with an OIDC token, the
/// server verifies and decides it, the sender answers the stand-in once; a voided purchase
/// later is its outcome.
@Suite(.serialized) struct GooglePlayServeTests {
  static let audience = "https://reckon.example.com/google/rtdn"
  static let pushEmail = "play-push@example-project.iam.gserviceaccount.com"
  static let policy = """
    policy "play" version 1
    rule "friendly fraud, used"
      when reason is not missing and reason == FRIENDLY_FRAUD and usage.consumed >= 40%
      then refund DECLINE
    otherwise share data only
    """

  final class World: @unchecked Sendable {
    let google: GooglePlayWorld
    let folder: URL
    let service: ReckonService
    let server: WebhookServer
    let port: Int
    let logLines = LogLines()

    /// A world of Google Play's app, and with `appStoreApp` an App Store app beside it whose
    /// requests the same fact source serves (an override in Apple's words among its entries).
    init(appStoreApp: Bool = false) throws {
      google = try GooglePlayWorld()
      folder = TestScratch.folder.appendingPathComponent("google-serve-\(UUID().uuidString)")
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      let keyPath = folder.appendingPathComponent("service-account.json").path
      try LocalFile.createPrivate(at: keyPath, with: google.account.json())
      try Data(GooglePlayServeTests.policy.utf8).write(
        to: folder.appendingPathComponent("play.policy"))
      let apple = #", "2000000000000001": {"customer.override": "GRANT_FULL"}"#
      let facts = """
        {"byTransactionId": {"GPA.3312-5841-2290-11234": {
          "customer.consented": true, "delivery.status": "DELIVERED",
          "product.sample_offered": false, "usage.consumed": "45.2%",
          "product.id": "coins_500"}\(appStoreApp ? apple : "")}}
        """
      try Data(facts.utf8).write(to: folder.appendingPathComponent("facts.json"))
      try Data(#"policy "apple" version 1 otherwise share data only"#.utf8).write(
        to: folder.appendingPathComponent("apple.policy"))
      let appleApp = """
        , {"bundleId": "com.example.coins", "appAppleId": 1234567890,
           "environment": "Production", "policy": "apple.policy"}
        """
      let json = """
        {"apps": [{"store": "googlePlay", "packageName": "\(GooglePlayWorld.packageName)", "policy": "play.policy"}\(appStoreApp ? appleApp : "")],
         "factSources": [{"name": "app", "type": "json", "path": "facts.json"}],
         "state": {"path": "state.sqlite"},
         "server": {"listen": "127.0.0.1:0"},
         "googlePlay": {"serviceAccountKeyPath": "service-account.json",
                        "baseURL": "\(google.base.absoluteString)",
                        "push": {"audience": "\(GooglePlayServeTests.audience)",
                                 "serviceAccountEmail": "\(GooglePlayServeTests.pushEmail)",
                                 "keysURL": "\(google.standIn.certificatesURL!.absoluteString)",
                                 "keysFile": "google-keys.json"}},
         "sender": {"initialBackoffSeconds": 0.2}}
        """
      let config = folder.appendingPathComponent("reckon.json")
      try Data(json.utf8).write(to: config)
      let configuration = try ReckonConfiguration.load(path: config.path)
      let metrics = ReckonMetrics()
      let logger = JSONLogger { [logLines] in logLines.append($0) }
      service = try ReckonService(
        configuration: configuration, state: SQLiteStateOpener(), transport: CurlHTTPClient(),
        events: { event in
          metrics.record(event)
          logger.log(event)
        })
      server = WebhookServer(
        service: service, configuration: configuration.server, metrics: metrics, logger: logger,
        googlePlayPath: configuration.googlePlay?.pushPath)
      var intervals = WebhookServer.Intervals()
      intervals.senderPoll = 0.05
      port = try server.start(intervals: intervals)
    }

    func stop() async {
      await server.stop()
      google.standIn.shutdown()
    }

    func push(
      _ kind: DeveloperNotification.Kind, authorization: String? = nil,
      packageName: String = GooglePlayWorld.packageName, messageId: String = UUID().uuidString
    ) async throws -> (Int, String) {
      let notification = DeveloperNotification(
        packageName: packageName, eventTime: Date(), kind: kind)
      let (body, signed) = try google.standIn.identity.push(
        notification, audience: GooglePlayServeTests.audience,
        email: GooglePlayServeTests.pushEmail, messageId: messageId)
      var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)/google/rtdn")!)
      request.httpMethod = "POST"
      request.httpBody = body
      request.setValue(authorization ?? signed, forHTTPHeaderField: "Authorization")
      let (data, response) = try await URLSession.shared.data(for: request)
      return (
        (response as? HTTPURLResponse)?.statusCode ?? 0, String(decoding: data, as: UTF8.self)
      )
    }

    /// Waits (at most 5 s) for the stand-in to record an answer for `orderId`.
    func answer(for orderId: String) async throws -> ReviewRefundRequest? {
      for _ in 0..<100 {
        if let answer = google.standIn.answer(for: orderId) { return answer }
        try await Task.sleep(nanoseconds: 50_000_000)
      }
      return nil
    }
  }

  @Test(arguments: [false, true])
  func aReviewIsVerifiedDecidedAndAnsweredOnce(beside appStoreApp: Bool) async throws {
    let world = try World(appStoreApp: appStoreApp)
    let review = world.google.openReview()
    let (status, body) = try await world.push(
      .pendingRefundReview(
        PendingRefundReviewNotification(
          pendingRefundToken: review.pendingRefundToken, orderId: review.orderId,
          refundReason: .friendlyFraud, obfuscatedAccountId: "acct-7")), messageId: "m-1")
    #expect(status == 200, "\(body)")
    #expect(body.contains(#""result":"decided""#), "\(body)")
    #expect(body.contains(#""rule":"friendly fraud, used""#), "\(body)")
    let answer = try #require(try await world.answer(for: review.orderId))
    #expect(
      answer
        == ReviewRefundRequest(
          pendingRefundToken: review.pendingRefundToken, sampleContentProvided: false,
          refundPreference: .decline, consumptionPercentageMilliunits: 45_200))
    // Pub/Sub delivers the same message again: recorded once, nothing sent again.
    let (again, againBody) = try await world.push(
      .pendingRefundReview(review), messageId: "m-1")
    #expect(again == 200)
    #expect(againBody.contains(#""result":"duplicate""#))
    // The voided purchase that ends the chargeback is the review's outcome.
    let (voided, voidedBody) = try await world.push(
      .voidedPurchase(VoidedPurchaseNotification(purchaseToken: "pt-1", orderId: review.orderId)))
    #expect(voided == 200)
    #expect(voidedBody.contains(#""result":"outcome""#), "\(voidedBody)")
    await world.stop()
    let calls = world.google.standIn.calls.filter {
      if case .reviewRefund = $0.endpoint { true } else { false }
    }
    #expect(calls.count == 1)
    let store = try SQLiteStateStore(
      path: world.folder.appendingPathComponent("state.sqlite").path, rules: .stores)
    // The review is the state's first request.
    #expect(try store.outcomes(requestId: 1) == [.refund])
    #expect(
      try store.refundCount(
        customer: .appAccountToken("acct-7"),
        app: AppKey(bundleId: GooglePlayWorld.packageName, environment: "GooglePlay"),
        before: Date().addingTimeInterval(60)) == 1)
  }

  @Test func aPushWithoutAValidTokenIsRefusedAndNeverDecided() async throws {
    let world = try World()
    let review = world.google.openReview()
    let forged = try LocalGoogleIdentity(keyId: world.google.standIn.identity.keyId).token(
      audience: Self.audience, email: Self.pushEmail)
    for (authorization, expected) in [("", 401), ("Bearer " + forged, 403)] {
      let (status, body) = try await world.push(
        .pendingRefundReview(review), authorization: authorization)
      #expect(status == expected, "\(body)")
      #expect(body.contains(#""result":"refused""#))
    }
    try await Task.sleep(nanoseconds: 300_000_000)
    await world.stop()
    #expect(world.google.standIn.answer(for: review.orderId) == nil)
  }

  /// A service of Google Play apps alone has no App Store webhook: a POST there is no route,
  /// and the log names the one webhook there is.
  @Test func theAppStoreWebhookIsNoRouteWithoutAppStoreApps() async throws {
    let world = try World()
    var request = URLRequest(
      url: URL(string: "http://127.0.0.1:\(world.port)/apple/notifications")!)
    request.httpMethod = "POST"
    request.httpBody = Data(#"{"signedPayload":"x.y.z"}"#.utf8)
    let (_, response) = try await URLSession.shared.data(for: request)
    await world.stop()
    #expect((response as? HTTPURLResponse)?.statusCode == 404)
    #expect(!world.service.answersAppStore)
    let refused = world.logLines.all.filter { $0.contains(#""event":"http_refused""#) }
    #expect(
      refused.first?.contains("POST no route (the webhook is /google/rtdn)") == true,
      "\(world.logLines.all)")
  }

  @Test func anotherPackagesReviewIsRefused() async throws {
    let world = try World()
    let (status, body) = try await world.push(
      .pendingRefundReview(PendingRefundReviewNotification(pendingRefundToken: "t", orderId: "o")),
      packageName: "com.someone.else")
    await world.stop()
    #expect(status == 403)
    #expect(body.contains("com.someone.else"))
  }
}
