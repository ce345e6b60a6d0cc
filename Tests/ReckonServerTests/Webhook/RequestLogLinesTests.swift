import Foundation
import ReckonAppStore
import ReckonEngine
import ReckonGooglePlay
import ReckonServer
import ReckonSupport
import ReckonTestSupport
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif
#if canImport(Glibc)
  import Glibc
#endif

/// One request's story is one filter: every line `reckon serve` logs for it, from the answer to
/// the send of its reply, carries the id the response's `X-Request-Id` gives, with the
/// notification, transaction, app and policy version, and numbers as JSON numbers.
struct RequestLogLinesTests {
  /// Every line logged so far, each parsed by a parser that tells numbers from strings.
  static func lines(_ logged: [String]) throws -> [[String: JSONValue]] {
    try logged.map { line in
      try #require(try JSONValue.parse(Data(line.utf8)).objectValue, "\(line)")
    }
  }

  /// POSTs `body` to the webhook, with `requestId` as `X-Request-Id` when given; the status and
  /// the response's `X-Request-Id`.
  static func post(_ body: Data, port: Int, requestId: String? = nil) async throws -> (
    Int, String?
  ) {
    var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)/apple/notifications")!)
    request.httpMethod = "POST"
    request.httpBody = body
    if let requestId { request.setValue(requestId, forHTTPHeaderField: "X-Request-Id") }
    let (_, response) = try await URLSession.shared.data(for: request)
    let http = response as? HTTPURLResponse
    return (http?.statusCode ?? 0, http?.value(forHTTPHeaderField: "X-Request-Id"))
  }

  @Test func everyLineOfAnAppleRequestCarriesItsIdAndWhatIsKnown() async throws {
    let fixture = try ServerFixture()
    let notification = ServerFixture.notification(transaction: "2000000899990001")
    let (status, header) = try await Self.post(try fixture.body(notification), port: fixture.port)
    let id = try #require(header, "the answer has an X-Request-Id")
    let sent = await ServerFixture.eventually {
      fixture.logLines.all.contains { $0.contains(#""event":"sender""#) && $0.contains(id) }
    }
    await fixture.stop()
    #expect(status == 200)
    #expect(sent, "the send's line carries the request's id")
    let lines = try Self.lines(fixture.logLines.all)
    let mine = lines.filter { $0["correlationId"] == .string(id) }
    #expect(
      Set(mine.compactMap { $0["event"]?.stringValue }) == ["answered", "decided", "sender"],
      "\(mine)")
    for line in mine {
      #expect(line["notificationUUID"] == .string(notification.notificationUUID), "\(line)")
      #expect(line["transactionId"] == .string("2000000899990001"), "\(line)")
      #expect(line["app"] == .string(TestKey.bundleId), "\(line)")
      // The fixture's policy has no version header: its hash stands for it.
      #expect(line["policyVersion"]?.stringValue?.hasPrefix("sha256:") == true, "\(line)")
      guard case .integer = line["requestId"] else {
        Issue.record("requestId is not a number: \(line)")
        continue
      }
    }
    // No line about this transaction is left without the id, and numbers are numbers.
    #expect(
      lines.filter { $0["transactionId"] == .string("2000000899990001") }.count == mine.count)
    for line in mine {
      for key in ["status", "entryId", "requestId"] where line[key] != nil {
        guard case .integer = line[key] else {
          Issue.record("\(key) is not a JSON number: \(line)")
          continue
        }
      }
    }
  }

  @Test func reckonServesLinesOfOneRequestShareItsIdAndFields() async throws {
    let (standIn, standInURL) = try TestKey.standIn()
    defer { standIn.shutdown() }
    let authority = try LocalCertificateAuthority()
    let folder = try ServeChild.workspace(standInURL, authority, name: "log-ids")
    let child = try ServeChild.launch(try CrashRecoveryTests.reckonBinary(), folder: folder)
    defer { if child.process.isRunning { kill(child.pid, SIGKILL) } }
    let port = try #require(await child.port(within: 20), "\(child.logText)")
    let notification = ServerFixture.notification(transaction: "2000000899990003")
    let posted = await ServeChild.post(try notification.body(signedBy: authority), port: port)
    let sent = await ServerFixture.eventually(within: 20) {
      child.logText.contains(#""event":"sender""#)
    }
    await child.terminate()
    #expect(posted == 200)
    #expect(sent, "\(child.logText)")
    // Every line of the process is a JSON object, whatever it is about.
    let lines = try Self.lines(child.logText.split(separator: "\n").map(String.init))
    let mine = lines.filter { $0["transactionId"] == .string("2000000899990003") }
    #expect(Set(mine.compactMap { $0["correlationId"] }).count == 1, "\(mine)")
    #expect(
      Set(mine.compactMap { $0["event"]?.stringValue }) == ["answered", "decided", "sender"],
      "\(mine)")
    for line in mine {
      #expect(line["notificationUUID"] == .string(notification.notificationUUID), "\(line)")
      #expect(line["app"] == .string(TestKey.bundleId), "\(line)")
      #expect(line["policyVersion"]?.stringValue?.hasPrefix("sha256:") == true, "\(line)")
      for key in ["status", "entryId", "requestId"] where line[key] != nil {
        guard case .integer = line[key] else {
          Issue.record("\(key) is not a JSON number: \(line)")
          continue
        }
      }
    }
  }

  @Test(arguments: [
    ("proxy-4f2a.9:1", true), ("two words", false), (String(repeating: "a", count: 65), false),
  ])
  func aProxysRequestIdIsKeptWhenItIsOneAProxyWouldMake(given: String, kept: Bool) async throws {
    let fixture = try ServerFixture()
    let (_, header) = try await Self.post(
      try fixture.body(ServerFixture.notification(transaction: "2000000899990002")),
      port: fixture.port, requestId: given)
    await fixture.stop()
    let id = try #require(header)
    #expect((id == given) == kept, "\(id)")
    let answered = try Self.lines(fixture.logLines.all).first {
      $0["event"] == .string("answered")
    }
    #expect(answered?["correlationId"] == .string(id))
  }

  @Test func everyLineOfAGooglePlayReviewCarriesItsIdsInTheSameFields() async throws {
    let world = try GooglePlayServeTests.World()
    let review = world.google.openReview()
    let (status, _) = try await world.push(
      .pendingRefundReview(
        PendingRefundReviewNotification(
          pendingRefundToken: review.pendingRefundToken, orderId: review.orderId,
          refundReason: .friendlyFraud, obfuscatedAccountId: "acct-7")), messageId: "m-logs-1")
    let answered = try await world.answer(for: review.orderId)
    _ = await ServerFixture.eventually {
      world.logLines.all.contains { $0.contains(#""event":"sender""#) }
    }
    await world.stop()
    #expect(status == 200)
    #expect(answered != nil)
    let lines = try Self.lines(world.logLines.all).filter {
      $0["transactionId"] == .string(review.orderId)
    }
    let ids = Set(lines.compactMap { $0["correlationId"] })
    #expect(ids.count == 1, "one id for the review's lines: \(lines)")
    #expect(
      Set(lines.compactMap { $0["event"]?.stringValue }) == ["answered", "decided", "sender"],
      "\(lines)")
    for line in lines {
      #expect(line["notificationUUID"] == .string("m-logs-1"), "\(line)")
      #expect(line["app"] == .string(GooglePlayWorld.packageName), "\(line)")
      #expect(line["policyVersion"] == .string("1"), "\(line)")
    }
  }
}
