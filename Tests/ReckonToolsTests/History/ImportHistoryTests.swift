import Foundation
import ReckonAppStore
import ReckonEngine
import ReckonHTTP
import ReckonStandIn
import ReckonSupport
import ReckonTestSupport
import Testing

@testable import ReckonStateSQLite
@testable import ReckonTools

/// `reckon import-history` against the stand-in: every window and page fetched with the client's
/// token, each payload verified, requests and outcomes stored once.
struct ImportHistoryTests {
  static let now = Date()
  static let app = AcceptedApp(bundleId: TestKey.bundleId, appAppleId: nil, environment: .sandbox)
  /// The same app in production, whose history goes back 180 days (the sandbox's, 30).
  static let productionApp = AcceptedApp(
    bundleId: TestKey.bundleId, appAppleId: nil, environment: .production)

  /// A notification of `type` about transaction `transaction`, signed `daysAgo` days ago.
  static func signed(
    _ ca: LocalCertificateAuthority, _ type: String, _ transaction: Int, daysAgo: Double,
    revocation: String? = nil, environment: String = "Sandbox"
  ) throws -> String {
    let date = Int64(now.addingTimeInterval(-daysAgo * 86_400).timeIntervalSince1970 * 1000)
    var transactionJSON =
      #"{"transactionId":"\#(transaction)","originalTransactionId":"\#(transaction)","bundleId":"\#(TestKey.bundleId)","productId":"com.example.coins","purchaseDate":\#(date - 86_400_000),"quantity":1,"type":"Consumable","inAppOwnershipType":"PURCHASED","signedDate":\#(date),"environment":"\#(environment)","price":990,"currency":"USD""#
    if let revocation {
      transactionJSON +=
        #","revocationDate":\#(date),"revocationReason":0,"revocationType":"\#(revocation)","revocationPercentage":40000"#
    }
    let signedTransaction = try ca.sign(payload: Data((transactionJSON + "}").utf8))
    let reason =
      type == "CONSUMPTION_REQUEST" ? #","consumptionRequestReason":"UNINTENDED_PURCHASE""# : ""
    let notification =
      #"{"notificationType":"\#(type)","notificationUUID":"\#(UUID().uuidString.lowercased())","version":"2.0","signedDate":\#(date),"data":{"environment":"\#(environment)","bundleId":"\#(TestKey.bundleId)","signedTransactionInfo":"\#(signedTransaction)"\#(reason)}}"#
    return try ca.sign(payload: Data(notification.utf8))
  }

  @Test func importsEveryPageOnceAndAgainStoresNothingTwice() async throws {
    let ca = try LocalCertificateAuthority(now: Self.now.addingTimeInterval(-120 * 86_400))
    let stranger = try LocalCertificateAuthority(
      name: "Stranger", now: Self.now.addingTimeInterval(-120 * 86_400))
    var payloads: [String] = []
    for transaction in 1...5 {
      payloads.append(
        try Self.signed(
          ca, "CONSUMPTION_REQUEST", transaction, daysAgo: Double(transaction * 11),
          environment: "Production"))
    }
    payloads.append(
      try Self.signed(
        ca, "REFUND", 1, daysAgo: 9, revocation: "REFUND_FULL", environment: "Production"))
    payloads.append(
      try Self.signed(
        ca, "REFUND", 2, daysAgo: 20, revocation: "REFUND_PRORATED", environment: "Production"))
    payloads.append(
      try Self.signed(ca, "REFUND_DECLINED", 3, daysAgo: 30, environment: "Production"))
    payloads.append(
      try Self.signed(ca, "REFUND_REVERSED", 1, daysAgo: 2, environment: "Production"))
    payloads.append(
      try Self.signed(stranger, "CONSUMPTION_REQUEST", 6, daysAgo: 3, environment: "Production"))
    payloads.append(try Self.signed(ca, "DID_RENEW", 7, daysAgo: 3, environment: "Production"))
    let (standIn, url) = try TestKey.standIn()
    defer { standIn.shutdown() }
    standIn.history.serve(payloads, pageSize: 1)
    let store = try SQLiteStateStore(
      path: TestScratch.folder.appendingPathComponent(
        "reckon-import-\(UUID().uuidString).sqlite"
      ).path, rules: .appStore)
    let importer = HistoryImporter(
      client: NotificationHistoryClient(
        client: try TestKey.client(url),
        app: AppStoreApp(bundleId: TestKey.bundleId, environment: .production),
        transport: CurlHTTPClient(timeout: 5)),
      verifier: NotificationVerifier(apps: [Self.productionApp], roots: [ca.root]), store: store)

    let first = try await importer.run(
      since: Self.now.addingTimeInterval(-90 * 86_400), until: nil, now: Self.now)
    #expect(first.requests == 5)
    #expect(first.outcomes == 4)
    #expect(first.unverified.count == 1)
    #expect(first.fetched == 10)
    #expect(first.pages > 4 * 3)
    #expect(standIn.requests.allSatisfy { $0.problem == nil })

    let again = try await importer.run(
      since: Self.now.addingTimeInterval(-90 * 86_400), until: nil, now: Self.now)
    #expect(again.requests == 0 && again.outcomes == 0)
    #expect(again.duplicates == 9)

    let stored = try store.storedRequests(since: nil, until: nil)
    #expect(stored.count == 5)
    let request = try StoredRequestDecoder.request(
      stored[0].rawNotification, receivedAt: stored[0].receivedAt, id: stored[0].id)
    #expect(request.notification.data?.consumptionRequestReason == .unintendedPurchase)
    #expect(try store.outcomes(requestId: stored.last!.id) == [.refund, .refundReversed])
    // A new install reports on history at once: what Apple decided for the imported requests.
    let report = OutcomeReport(try store.decidedOutcomes(since: nil, until: nil))
    let imported = try #require(report.byPreference[OutcomeReport.importedHistory])
    #expect(imported.decisions == 5)
    #expect(imported.withOutcome == 3)
    #expect(imported.refunded == 2 && imported.declined == 1 && imported.reversed == 1)
    #expect(report.byRule[OutcomeReport.importedHistory]?.decisions == 5)
    #expect(report.text().contains(OutcomeReport.importedHistory))
    // Apart from the headline, which says how Apple followed Reckon's own answers.
    #expect(report.all.decisions == 0)
    #expect(report.importedHistory.decisions == 5)
    #expect(
      report.text().contains(
        "imported history (not answered by Reckon, not in the totals above): 5 requests"))
    #expect(report.json().contains(#""importedHistory":{"#))
    #expect(try store.requestSpan(decided: true).count == 5)
    for body in standIn.history.requestBodies {
      let object = try #require(try JSONValue.parse(body).objectValue)
      guard case .integer(let start)? = object["startDate"],
        case .integer(let end)? = object["endDate"]
      else {
        Issue.record("no dates")
        continue
      }
      #expect(end - start <= 30 * 86_400_000)
      #expect(Double(start) >= (Self.now.timeIntervalSince1970 - 180 * 86_400) * 1000)
      #expect(HistoryImporter.types.contains(object["notificationType"]?.stringValue ?? ""))
    }
  }

  /// A refund imported for a transaction with no request here keeps the environment it was
  /// imported from, so it is no earlier refund of the customer's requests in the other one.
  @Test func anImportedRefundCountsOnlyForItsOwnEnvironment() async throws {
    let ca = try LocalCertificateAuthority(now: Self.now.addingTimeInterval(-120 * 86_400))
    let (standIn, url) = try TestKey.standIn()
    defer { standIn.shutdown() }
    standIn.history.serve(
      [try Self.signed(ca, "REFUND", 8, daysAgo: 5, revocation: "REFUND_FULL")], pageSize: 10)
    let store = try SQLiteStateStore(
      path: TestScratch.folder.appendingPathComponent(
        "reckon-import-\(UUID().uuidString).sqlite"
      ).path, rules: .appStore)
    let sandbox = AppStoreApp(bundleId: TestKey.bundleId, environment: .sandbox)
    let importer = HistoryImporter(
      client: NotificationHistoryClient(
        client: try TestKey.client(url), app: sandbox, transport: CurlHTTPClient(timeout: 5)),
      verifier: NotificationVerifier(apps: [Self.app], roots: [ca.root]), store: store)
    let summary = try await importer.run(
      since: Self.now.addingTimeInterval(-30 * 86_400), until: nil, now: Self.now)
    #expect(summary.outcomes == 1)
    let production = AppStoreApp(bundleId: TestKey.bundleId, environment: .production)
    #expect(
      try store.refundCount(
        customer: .originalTransactionId("8"), app: sandbox.key, before: Self.now)
        == 1)
    #expect(
      try store.refundCount(
        customer: .originalTransactionId("8"), app: production.key, before: Self.now) == 0)
  }

  @Test func aThrottledPageWaitsOutRetryAfterAndAFarOneEndsSayingUntilWhen() async throws {
    let ca = try LocalCertificateAuthority(now: Self.now.addingTimeInterval(-120 * 86_400))
    let (standIn, url) = try TestKey.standIn()
    defer { standIn.shutdown() }
    standIn.history.serve([try Self.signed(ca, "CONSUMPTION_REQUEST", 1, daysAgo: 1)], pageSize: 10)
    let client = NotificationHistoryClient(
      client: try TestKey.client(url),
      app: AppStoreApp(bundleId: TestKey.bundleId, environment: .sandbox),
      transport: CurlHTTPClient(timeout: 5))
    let query = NotificationHistoryClient.Query(
      startDate: Self.now.addingTimeInterval(-2 * 86_400), endDate: Self.now)

    // Five 429s in a row: each Retry-After is waited out, and the sixth try gets the page.
    standIn.history.throttle(0.2, 0.2, 0.2, 0.2, 0.2)
    let started = Date()
    let page = try await client.page(query, paginationToken: nil)
    #expect(page.notificationHistory?.count == 1)
    #expect(Date().timeIntervalSince(started) >= 0.9)
    #expect(standIn.history.requestBodies.count == 6)

    // A wait longer than the client's limit ends at once, saying when to try again.
    client.maximumWait = 60
    standIn.history.throttle(600)
    let waitStarted = Date()
    await #expect {
      _ = try await client.page(query, paginationToken: nil)
    } throws: { error in
      guard case .rateLimited(let until) = error as? NotificationHistoryError else { return false }
      return abs(until.timeIntervalSinceNow - 600) < 20
    }
    // At once, not after waiting (60 s allowed) nor giving up after backing off: margins wide
    // enough for a loaded machine.
    #expect(Date().timeIntervalSince(waitStarted) < 20)
  }

  /// Apple reckons the 180 days when each request arrives. Here every request, 429s included,
  /// is answered half an hour after the one before (as a run of `Retry-After` waits would make
  /// it), so by the later requests the start planned when the run began is too old: each must
  /// be moved up to what Apple accepts then, or the stand-in refuses it and the import stops.
  @Test func everyRequestStartsWithinTheHundredAndEightyDaysWhenItIsMade() async throws {
    let ca = try LocalCertificateAuthority(now: Self.now.addingTimeInterval(-120 * 86_400))
    let (standIn, url) = try TestKey.standIn()
    defer { standIn.shutdown() }
    standIn.history.serve(
      [
        try Self.signed(ca, "CONSUMPTION_REQUEST", 1, daysAgo: 100, environment: "Production"),
        try Self.signed(
          ca, "REFUND", 1, daysAgo: 99, revocation: "REFUND_FULL", environment: "Production"),
      ], pageSize: 10)
    let clock = SimulatedClock(start: Self.now)
    standIn.history.useClock {
      defer { clock.advance(by: 1_800) }
      return clock.now()
    }
    standIn.history.throttle(0.05, 0.05, 0.05)
    let history = NotificationHistoryClient(
      client: try TestKey.client(url),
      app: AppStoreApp(bundleId: TestKey.bundleId, environment: .production),
      transport: CurlHTTPClient(timeout: 5))
    history.now = { clock.now() }
    let store = try SQLiteStateStore(
      path: TestScratch.folder.appendingPathComponent(
        "reckon-import-\(UUID().uuidString).sqlite"
      ).path, rules: .appStore)
    let importer = HistoryImporter(
      client: history, verifier: NotificationVerifier(apps: [Self.productionApp], roots: [ca.root]),
      store: store)

    let summary = try await importer.run(
      since: Self.now.addingTimeInterval(-200 * 86_400), until: nil, now: Self.now)
    #expect(summary.requests == 1 && summary.outcomes == 1)
    let bodies = standIn.history.requestBodies
    #expect(bodies.count >= 3 + 4 * 6)
    #expect(standIn.requests.allSatisfy { $0.status == 200 || $0.status == 429 })
    // Request i arrived i half-hours after the run began; its start allowed the minute of slack.
    for (index, body) in bodies.enumerated() {
      guard case .integer(let start)? = try JSONValue.parse(body).objectValue?["startDate"] else {
        Issue.record("no startDate")
        continue
      }
      let arrived = Self.now.addingTimeInterval(Double(index) * 1_800)
      #expect(
        Double(start) / 1000 >= HistoryImporter.earliestStart(now: arrived).timeIntervalSince1970
          - 0.001, "request \(index)")
    }
  }

  @Test func aWindowWhollyOlderThanAppleKeepsIsAnEmptyPageWithoutAsking() async throws {
    let (standIn, url) = try TestKey.standIn()
    defer { standIn.shutdown() }
    let client = NotificationHistoryClient(
      client: try TestKey.client(url),
      app: AppStoreApp(bundleId: TestKey.bundleId, environment: .sandbox),
      transport: CurlHTTPClient(timeout: 5))
    client.now = { Self.now.addingTimeInterval(2 * 86_400) }
    let page = try await client.page(
      .init(
        startDate: Self.now.addingTimeInterval(-180 * 86_400),
        endDate: Self.now.addingTimeInterval(-179 * 86_400)),
      paginationToken: nil)
    #expect(page.notificationHistory?.isEmpty == true && page.hasMore == false)
    #expect(standIn.history.requestBodies.isEmpty)
  }

  @Test func aStartFurtherBackThanAppleKeepsIsNamedWithWhereTheImportStarts() throws {
    let old = Self.now.addingTimeInterval(-200 * 86_400)
    let note = try #require(HistoryImporter.startNote(since: old, now: Self.now))
    #expect(note.contains("more than 180 days ago"))
    #expect(note.hasSuffix(HistoryImporter.earliestStart(now: Self.now).formatted(.iso8601)))
    #expect(
      HistoryImporter.startNote(since: Self.now.addingTimeInterval(-179 * 86_400), now: Self.now)
        == nil)
  }

  /// The sandbox keeps 30 days of history, not 180: its windows, its note and the start each
  /// request asks for follow that.
  @Test func theSandboxKeepsThirtyDays() async throws {
    let windows = HistoryImporter.windows(
      since: Self.now.addingTimeInterval(-100 * 86_400), until: nil, now: Self.now,
      environment: .sandbox)
    #expect(windows.first!.lowerBound >= Self.now.addingTimeInterval(-30 * 86_400))
    let note = try #require(
      HistoryImporter.startNote(
        since: Self.now.addingTimeInterval(-40 * 86_400), now: Self.now, environment: .sandbox))
    #expect(note.contains("more than 30 days ago; the sandbox keeps 30 days of history"))
    #expect(
      HistoryImporter.startNote(since: Self.now.addingTimeInterval(-40 * 86_400), now: Self.now)
        == nil)

    let (standIn, url) = try TestKey.standIn()
    defer { standIn.shutdown() }
    let client = NotificationHistoryClient(
      client: try TestKey.client(url),
      app: AppStoreApp(bundleId: TestKey.bundleId, environment: .sandbox),
      transport: CurlHTTPClient(timeout: 5))
    client.now = { Self.now }
    _ = try await client.page(
      .init(startDate: Self.now.addingTimeInterval(-60 * 86_400), endDate: Self.now),
      paginationToken: nil)
    let body = try #require(standIn.history.requestBodies.first)
    guard case .integer(let start)? = try JSONValue.parse(body).objectValue?["startDate"] else {
      Issue.record("no startDate")
      return
    }
    #expect(
      Double(start) / 1000
        >= Self.now.addingTimeInterval(-30 * 86_400).timeIntervalSince1970 - 0.001)
  }

  @Test func windowsStayWithinAppleLimits() {
    let windows = HistoryImporter.windows(
      since: Self.now.addingTimeInterval(-400 * 86_400), until: nil, now: Self.now)
    #expect(windows.first!.lowerBound >= Self.now.addingTimeInterval(-180 * 86_400))
    #expect(windows.last!.upperBound == Self.now)
    #expect(windows.allSatisfy { $0.upperBound.timeIntervalSince($0.lowerBound) <= 30 * 86_400 })
    #expect(zip(windows, windows.dropFirst()).allSatisfy { $0.upperBound == $1.lowerBound })
  }
}
