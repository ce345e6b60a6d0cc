import Foundation
import ReckonAppStore
import ReckonStandIn
import ReckonTestSupport
import Testing

@testable import ReckonEngine
@testable import ReckonStateSQLite

/// SIGKILL of the built `reckon serve` at random points while signed notifications are POSTed to
/// it (ingest) and while it sends replies to a slow stand-in (send), round after round, then one
/// restart that drains everything. Apple's side is played faithfully: a notification not answered
/// 200 is POSTed again, byte for byte, in a later round. `RECKON_KILL_ROUNDS` sets the rounds:
/// 40 by default, so `swift test` stays well under three minutes on two cores (a round costs
/// 0.25–0.6 s there); `scripts/fault-soak` runs 200. `RECKON_KILL_SEED` replays a run (the seed
/// is printed).
@Suite(.serialized) struct ServeKillTests {
  static let rounds = Int(ProcessInfo.processInfo.environment["RECKON_KILL_ROUNDS"] ?? "") ?? 40
  static let seed =
    UInt64(ProcessInfo.processInfo.environment["RECKON_KILL_SEED"] ?? "")
    ?? UInt64.random(in: 1...UInt64.max)

  /// One notification as Apple would retry it: the same signed bytes every time.
  struct Notice {
    let uuid: String
    let transactionId: String
    let body: Data
    var accepted = false
  }

  @Test func killingServeAtRandomPointsLosesNoAcceptedNotificationAndSendsOnlyOneBody()
    async throws
  {
    let clock = ContinuousClock()
    let started = clock.now
    let binary = try CrashRecoveryTests.reckonBinary()
    let (standIn, standInURL) = try TestKey.standIn()
    let authority = try LocalCertificateAuthority()
    let folder = try ServeChild.workspace(standInURL, authority, name: "kill")
    let random = SharedRandom(seed: Self.seed)
    print("serve kill test: seed \(Self.seed) (RECKON_KILL_SEED replays it), \(Self.rounds) rounds")
    // A slow App Store keeps each send on the wire for a while, so kills land mid-send too.
    standIn.respond { _ in
      usleep(UInt32(random.next(in: 0...15) * 1_000))
      return nil
    }
    var notices: [Notice] = []
    var posts = 0
    var kills = 0
    var killsMidIngest = 0
    for round in 0..<Self.rounds {
      let child = try ServeChild.launch(binary, folder: folder)
      guard let port = await child.port(within: 30) else {
        await child.kill()
        Issue.record("round \(round): reckon serve did not listen: \(child.logText)")
        break
      }
      for _ in 0..<random.next(in: 1...2) {
        notices.append(try Self.notice(number: notices.count, authority))
      }
      // The new notifications and Apple's retries of earlier ones still unanswered.
      let batch = Array(notices.indices.filter { !notices[$0].accepted }.suffix(4))
      let killAfter = UInt64(random.next(in: 5...60))
      async let answers = Self.post(batch.map { notices[$0].body }, port: port)
      try await Task.sleep(nanoseconds: killAfter * 1_000_000)
      await child.kill()
      kills += 1
      let statuses = await answers
      if statuses.contains(where: { $0 == nil }) { killsMidIngest += 1 }
      for (index, status) in zip(batch, statuses) {
        posts += 1
        if status == 200 { notices[index].accepted = true }
      }
    }

    let killPhase = clock.now - started
    let last = try ServeChild.launch(binary, folder: folder)
    let port = try #require(await last.port(within: 30), "the final reckon serve did not listen")
    for _ in 0..<10 where notices.contains(where: { !$0.accepted }) {
      let batch = notices.indices.filter { !notices[$0].accepted }
      for (index, status) in zip(batch, await Self.post(batch.map { notices[$0].body }, port: port))
      {
        posts += 1
        if status == 200 { notices[index].accepted = true }
      }
    }
    let retried = clock.now
    let store = try SQLiteStateStore(
      path: folder.appendingPathComponent("state.sqlite").path, rules: .appStore)
    let drained = try await ServerFixture.eventually(within: 60) {
      try Self.unfinished(store) == 0 && store.entries(limit: 100_000).count == notices.count
    }
    let drainSeconds = (clock.now - retried).components.seconds
    await last.terminate()
    let unfinished = try Self.unfinished(store)
    #expect(drained, "still unfinished: \(unfinished); log: \(last.logText)")
    #expect(last.process.terminationStatus == 0)
    #expect(notices.allSatisfy { $0.accepted }, "Apple's retries were never answered 200")

    // Every accepted notification was recorded once and decided once.
    let recorded = try store.connection.query("SELECT id, notification_uuid FROM requests")
    #expect(Set(recorded.compactMap { $0.text(1) }) == Set(notices.map(\.uuid)))
    #expect(recorded.count == notices.count)
    for row in recorded {
      let count = try store.decisionCount(requestId: row.int(0) ?? 0)
      #expect(count == 1, "request \(row.text(1) ?? "") has \(count) decisions")
    }
    // Every decision's reply ended sent, only ever with its one validated body.
    let entries = try store.entries(limit: 100_000)
    #expect(Set(entries.map(\.transactionId)) == Set(notices.map(\.transactionId)))
    #expect(entries.count == notices.count)
    let received = Dictionary(grouping: standIn.requests, by: { $0.transactionId ?? "" })
    #expect(Set(received.keys).isSubset(of: Set(notices.map(\.transactionId))))
    var duplicates = 0
    var interrupted = 0
    for entry in entries {
      #expect(entry.state.name == "sent", "entry \(entry.id) ended \(entry.state.name)")
      let deliveries = received[entry.transactionId] ?? []
      #expect(
        deliveries.allSatisfy { $0.body == entry.body && $0.problem == nil },
        "transaction \(entry.transactionId) received another body")
      let accepted = deliveries.filter { $0.status == 202 }.count
      // A body goes out again only after a kill interrupted its send, or when its answer never
      // reached the sender (an attempt recorded with no status).
      let unanswered = try store.attempts(entryId: entry.id).filter { $0.httpStatus == nil }.count
      #expect(accepted >= 1)
      #expect(
        accepted <= 1 + entry.interruptedSends + unanswered,
        "transaction \(entry.transactionId) accepted \(accepted) times")
      duplicates += max(0, accepted - 1)
      interrupted += entry.interruptedSends
    }
    let seconds = (clock.now - started).components.seconds
    let killSeconds = killPhase.components.seconds
    print(
      "serve kill test: seed \(Self.seed), \(Self.rounds) rounds, \(kills) kills "
        + "(\(killsMidIngest) with a POST unanswered), \(notices.count) notifications, "
        + "\(posts) POSTs, \(standIn.requests.count) requests at the stand-in, \(interrupted) interrupted sends, "
        + "\(duplicates) duplicate deliveries (same body), \(seconds) s (kill rounds \(killSeconds) s, drain \(drainSeconds) s)"
    )
    await ServerFixture.offPool { standIn.shutdown() }
  }

  static func notice(number: Int, _ authority: LocalCertificateAuthority) throws -> Notice {
    let notification = ServerFixture.notification(transaction: String(3_000_000_000 + number))
    return Notice(
      uuid: notification.notificationUUID, transactionId: notification.transactionId,
      body: try notification.body(signedBy: authority))
  }

  /// POSTs every body at once, each on its own connection; the statuses in order (nil: no answer).
  static func post(_ bodies: [Data], port: Int) async -> [Int?] {
    await withTaskGroup(of: (Int, Int?).self) { group in
      for (index, body) in bodies.enumerated() {
        group.addTask { (index, await ServeChild.post(body, port: port)) }
      }
      var statuses = [Int?](repeating: nil, count: bodies.count)
      for await (index, status) in group { statuses[index] = status }
      return statuses
    }
  }

  /// Requests without a decision plus entries not yet final.
  static func unfinished(_ store: SQLiteStateStore) throws -> Int {
    let undecided = try store.connection.query(
      """
      SELECT COUNT(*) FROM requests r
      WHERE NOT EXISTS (SELECT 1 FROM decisions d WHERE d.request_id = r.id)
      """
    ).first?.int(0)
    let open = try store.entries(states: ["pending", "held", "sending"], limit: 100_000).count
    return Int(undecided ?? 0) + open
  }
}
