import Foundation
import ReckonGooglePlay
import ReckonStandIn
import ReckonTestSupport
import Testing

@Suite struct GooglePlayClientTests {
  @Test func theFirstAnswerIsRecordedAndALaterOneIsIgnoredWithOK() async throws {
    let world = try GooglePlayWorld()
    defer { world.standIn.shutdown() }
    let review = world.openReview()
    let first = await world.client.send(
      GooglePlayWorld.answer(review, .decline), packageName: GooglePlayWorld.packageName,
      orderId: review.orderId, before: nil)
    #expect(first == .recorded)
    let second = await world.client.send(
      GooglePlayWorld.answer(review, .approve), packageName: GooglePlayWorld.packageName,
      orderId: review.orderId, before: nil)
    #expect(second == .recorded)
    #expect(world.standIn.answer(for: review.orderId)?.refundPreference == .decline)
    let reviews = world.standIn.calls.filter {
      if case .reviewRefund = $0.endpoint { true } else { false }
    }
    #expect(reviews.map(\.recorded) == [true, false])
    // One token served both answers.
    #expect(world.standIn.calls.filter { $0.endpoint == .token }.count == 1)
  }

  @Test func anUnknownOrderIsRejectedForGood() async throws {
    let world = try GooglePlayWorld()
    defer { world.standIn.shutdown() }
    let review = PendingRefundReviewNotification(pendingRefundToken: "t", orderId: "GPA.none")
    let delivery = await world.client.send(
      GooglePlayWorld.answer(review), packageName: GooglePlayWorld.packageName,
      orderId: review.orderId, before: nil)
    #expect(delivery == .rejected(status: 404, reason: "HTTP 404 NOT_FOUND: Order not found."))
  }

  @Test func aTurnedAwayCallIsSurelyNotRecorded() async throws {
    let world = try GooglePlayWorld()
    defer { world.standIn.shutdown() }
    let review = world.openReview()
    world.standIn.inject(.refuse(status: 503))
    let delivery = await world.client.send(
      GooglePlayWorld.answer(review), packageName: GooglePlayWorld.packageName,
      orderId: review.orderId, before: nil)
    guard case .notRecorded = delivery else {
      Issue.record("\(delivery)")
      return
    }
    #expect(world.standIn.answer(for: review.orderId) == nil)
  }

  @Test func aServerErrorAfterTheWriteIsUncertain() async throws {
    let world = try GooglePlayWorld()
    defer { world.standIn.shutdown() }
    let review = world.openReview()
    world.standIn.inject(.recordThenFail(status: 500))
    let delivery = await world.client.send(
      GooglePlayWorld.answer(review), packageName: GooglePlayWorld.packageName,
      orderId: review.orderId, before: nil)
    #expect(delivery == .uncertain(reason: "HTTP 500 INTERNAL: Internal error encountered."))
    #expect(world.standIn.answer(for: review.orderId) != nil)
  }

  @Test func noConnectionIsSurelyNotRecorded() async throws {
    let world = try GooglePlayWorld()
    let review = world.openReview()
    // A token first, so that the answer itself meets the closed port.
    _ = try await world.tokens.token(now: Date())
    world.standIn.shutdown()
    let delivery = await world.client.send(
      GooglePlayWorld.answer(review), packageName: GooglePlayWorld.packageName,
      orderId: review.orderId, before: nil)
    guard case .notRecorded = delivery else {
      Issue.record("\(delivery)")
      return
    }
  }

  /// A token endpoint that cannot be reached says nothing of the key: the answer was not sent
  /// and is tried again, where refused credentials pause the app.
  @Test func aTokenEndpointThatCannotBeReachedIsNotACredentialsProblem() async throws {
    let world = try GooglePlayWorld()
    world.standIn.shutdown()
    let review = world.openReview()
    let delivery = await world.client.send(
      GooglePlayWorld.answer(review), packageName: GooglePlayWorld.packageName,
      orderId: review.orderId, before: nil)
    guard case .notRecorded(let reason, nil, nil) = delivery else {
      Issue.record("\(delivery)")
      return
    }
    #expect(reason.hasPrefix("no access token: the OAuth token endpoint could not be reached"))
  }

  @Test func anAssertionFromAnotherKeyGetsNoToken() async throws {
    let world = try GooglePlayWorld()
    defer { world.standIn.shutdown() }
    let stranger = ServiceAccountKey(
      clientEmail: GooglePlayWorld.clientEmail, privateKeyId: nil,
      privateKey: try RSAPrivateKey(generatedFor: "a stranger"), tokenURL: world.standIn.tokenURL!)
    let tokens = AccessTokenSource(account: stranger, transport: world.transport)
    await #expect(throws: AccessTokenError.refused(status: 400, "Invalid JWT Signature.")) {
      try await tokens.token(now: Date())
    }
    let client = GooglePlayAPIClient(
      tokens: tokens, baseURL: world.base, transport: world.transport)
    let review = world.openReview()
    let delivery = await client.send(
      GooglePlayWorld.answer(review), packageName: GooglePlayWorld.packageName,
      orderId: review.orderId, before: nil)
    guard case .noToken = delivery else {
      Issue.record("\(delivery)")
      return
    }
  }

  @Test func aServiceAccountKeyFileReadsBack() throws {
    let world = try GooglePlayWorld()
    defer { world.standIn.shutdown() }
    let reread = try ServiceAccountKey(json: world.account.json(), source: "account.json")
    #expect(reread.clientEmail == GooglePlayWorld.clientEmail)
    #expect(reread.privateKeyId == "test-key-1")
    #expect(reread.tokenURL == world.standIn.tokenURL)
  }

  @Test(arguments: [
    (#"{"type": "authorized_user"}"#, "\"type\" is not \"service_account\""),
    (#"{"type": "service_account", "private_key": "x"}"#, "no \"client_email\""),
    (#"{"type": "service_account", "client_email": "a@b"}"#, "no \"private_key\""),
  ])
  func aFileThatIsNoServiceAccountKeyIsRefused(json: String, reason: String) {
    #expect(throws: ServiceAccountKeyError.notAServiceAccountKey(path: "k.json", reason: reason)) {
      try ServiceAccountKey(json: Data(json.utf8), source: "k.json")
    }
  }

  @Test(arguments: [
    (
      #"{"pendingRefundToken":"prt-1","sampleContentProvided":false,"refundPreference":"DECLINE","note":"x"}"#,
      "Unknown name \"note\""
    ),
    (
      #"{"pendingRefundToken":"prt-1","refundPreference":"DECLINE"}"#,
      "sampleContentProvided is required."
    ),
    (
      #"{"pendingRefundToken":"prt-1","sampleContentProvided":false,"refundPreference":"REFUND_PREFERENCE_UNSPECIFIED"}"#,
      "refundPreference must be"
    ),
    (
      #"{"pendingRefundToken":"prt-1","sampleContentProvided":false,"refundPreference":"DECLINE","consumptionPercentageMilliunits":100001}"#,
      "between 0 and 100000"
    ),
    (
      #"{"pendingRefundToken":"prt-9","sampleContentProvided":false,"refundPreference":"DECLINE"}"#,
      "Invalid pending refund token."
    ),
  ])
  func theStandInHoldsRawBodiesToGooglesRules(body: String, fragment: String) async throws {
    let world = try GooglePlayWorld()
    defer { world.standIn.shutdown() }
    let review = world.openReview()
    let token = try await world.tokens.token(now: Date())
    let response = try await world.transport.perform(
      .init(
        method: "POST",
        url: world.client.reviewRefundURL(
          packageName: GooglePlayWorld.packageName, orderId: review.orderId),
        headers: [("Authorization", "Bearer \(token)"), ("Content-Type", "application/json")],
        body: Data(body.utf8)))
    #expect(response.status == 400)
    #expect(GoogleAPIError(body: response.body)?.message.contains(fragment) == true)
    #expect(world.standIn.answer(for: review.orderId) == nil)
  }
}
