import Foundation
import ReckonAppStore
import ReckonStandIn
import ReckonState
import ReckonStatePostgres
import ReckonTestSupport
import Testing

/// Three `reckon serve` replicas on one PostgreSQL database, notifications posted to them in
/// turn, a random replica SIGKILLed every couple of seconds and started again. Apple's side is
/// played faithfully: a notification not answered 2xx is posted again, byte for byte, to the next
/// replica. At the end every notification answered 2xx is decided exactly once, every reply
/// reached the stand-in, with one body per transaction, and never more than the configured
/// rate in any second. `RECKON_REPLICA_NOTIFICATIONS` sets how many (120 by default, so
/// `swift test` stays short; `scripts/replica-soak` posts 2,000); `RECKON_REPLICA_SEED` replays
/// a run.
@Suite(
  .serialized,
  .enabled(if: TestPostgres.isAvailable, "needs a PostgreSQL server (see TestPostgres)"))
struct ReplicaFaultTests {
  static let count =
    Int(ProcessInfo.processInfo.environment["RECKON_REPLICA_NOTIFICATIONS"] ?? "") ?? 120
  static let seed =
    UInt64(ProcessInfo.processInfo.environment["RECKON_REPLICA_SEED"] ?? "")
    ?? UInt64.random(in: 1...UInt64.max)
  /// The sandbox rate every replica is configured with, which all of them together keep.
  static let rate = 20

  @Test func killingRandomReplicasLosesNothingAndKeepsTheRate() async throws {
    let binary = try CrashRecoveryTests.reckonBinary()
    let (standIn, standInURL) = try TestKey.standIn()
    let random = SharedRandom(seed: Self.seed)
    print("replica fault test: seed \(Self.seed), \(Self.count) notifications")
    standIn.respond { _ in
      usleep(UInt32(random.next(in: 0...10) * 1_000))
      return nil
    }
    let authority = try LocalCertificateAuthority()
    let url = try TestPostgres.freshDatabase()
    let folder = try ServeChild.workspace(
      standInURL, authority, name: "replica-faults", state: #"{"url": "\#(url)"}"#,
      sender: #"""
        {"sandboxRequestsPerSecond": \#(Self.rate), "sendLeaseSeconds": 10,
         "initialBackoffSeconds": 0.2, "maximumBackoffSeconds": 1}
        """#)
    let replicas = try await Replicas(binary: binary, folder: folder, count: 3)
    var notices = try (0..<Self.count).map {
      try ServeKillTests.notice(number: 700_000 + $0, authority)
    }
    // Kills on a timer of their own, so they land in the middle of POSTs as well as of sends;
    // they go on until every notification was accepted and a few kills happened.
    let posting = Flag()
    let killing = Task {
      var kills = 0
      while posting.isSet == false || kills < max(3, Self.count / 100) {
        try await Task.sleep(nanoseconds: UInt64(random.next(in: 1_000...3_000)) * 1_000_000)
        try await replicas.killAndRestart(random.next(in: 0...2))
        kills += 1
      }
      return kills
    }
    var posts = 0
    var turn = 0
    while notices.contains(where: { !$0.accepted }) {
      let waiting = notices.indices.filter { !notices[$0].accepted }.prefix(5)
      let ports = replicas.ports
      let statuses = await withTaskGroup(of: (Int, Int?).self) { group in
        for index in waiting {
          let port = ports[turn % ports.count]
          let body = notices[index].body
          turn += 1
          group.addTask { (index, await ServeChild.post(body, port: port, wait: 5)) }
        }
        return await group.reduce(into: [(Int, Int?)]()) { $0.append($1) }
      }
      for (index, status) in statuses {
        posts += 1
        if let status, (200..<300).contains(status) { notices[index].accepted = true }
      }
      try await Task.sleep(nanoseconds: 250_000_000)
    }
    posting.set()
    let kills = try await killing.value

    let store = try PostgresStateStore(address: PostgresAddress(url: url), rules: .appStore)
    // A replica killed while deciding leaves its claim on the request for the claim's lifetime
    // (`PostgresStateStore.claimLifetime`, 120 s); Apple's retry is then a duplicate, and the
    // leader's retry pass (every 30 s) decides the request once the claim has lapsed. The wait
    // covers both, and a margin for a busy machine.
    let drained = try await ServerFixture.eventually(within: 200) {
      try store.entryCount(states: ["sent"]) == notices.count
    }
    await replicas.terminateAll()
    await ServerFixture.offPool { standIn.shutdown() }
    let depth = try store.outboxDepth()
    #expect(
      drained,
      "not all sent: \(depth)\n\(replicas.linesAboutUndecided().suffix(20).joined(separator: "\n"))"
    )

    let requests = try store.storedRequests(since: nil, until: nil)
    #expect(requests.count == notices.count, "each accepted notification recorded once")
    var decidedTwice = 0
    for request in requests where try store.decisionCount(requestId: request.id) != 1 {
      decidedTwice += 1
    }
    let entries = try store.entries(states: [], limit: 100_000)
    let received = Dictionary(grouping: standIn.requests.filter { $0.method == "PUT" }) {
      $0.transactionId ?? ""
    }
    var otherBodies = 0
    var duplicates = 0
    var lost = 0
    for entry in entries {
      let deliveries = received[entry.transactionId] ?? []
      if !deliveries.allSatisfy({ $0.body == entry.body && $0.problem == nil }) { otherBodies += 1 }
      let accepted = deliveries.filter { $0.status == 202 }.count
      if accepted == 0 { lost += 1 }
      duplicates += max(0, accepted - 1)
      #expect(accepted <= 1 + entry.interruptedSends, "\(entry.transactionId): \(accepted)")
    }
    lost += notices.count - entries.count
    let busiestReceived = busiestSecond(
      standIn.requests.filter { $0.method == "PUT" }.map(\.receivedAt))
    let busiest = busiestSecond(
      try entries.flatMap { try store.attempts(entryId: $0.id) }.map(\.startedAt))
    print(
      "replica fault test: seed \(Self.seed), \(notices.count) notifications, \(posts) POSTs, "
        + "\(kills) kills, \(entries.count) decided, \(decidedTwice) decided twice, \(lost) lost, "
        + "\(otherBodies) transactions with another body, \(duplicates) repeated deliveries "
        + "(same body), busiest second \(busiest) of \(Self.rate) allowed (\(busiestReceived) in the "
        + "stand-in's log)")
    #expect(decidedTwice == 0)
    #expect(lost == 0)
    #expect(otherBodies == 0)
    #expect(busiest <= Self.rate)
  }
}

/// The running replicas and their ports, one of which a kill replaces with a new process.
final class Replicas: @unchecked Sendable {
  private let binary: URL
  private let folder: URL
  private let lock = NSLock()
  private var children: [(child: ServeChild, port: Int)] = []
  private var launches = 0

  init(binary: URL, folder: URL, count: Int) async throws {
    self.binary = binary
    self.folder = folder
    for _ in 0..<count {
      let launched = try await launch()
      lock.withLock { children.append(launched) }
    }
  }

  /// The ports answering now (one being restarted keeps its old, dead one until it listens).
  var ports: [Int] { lock.withLock { children.map(\.port) } }

  /// SIGKILLs replica `index` and starts another in its place.
  func killAndRestart(_ index: Int) async throws {
    let victim = lock.withLock { children[index].child }
    await victim.kill()
    let launched = try await launch()
    lock.withLock { children[index] = launched }
  }

  /// What the replicas logged about requests kept undecided or passes that failed, for a run
  /// that did not drain.
  func linesAboutUndecided() -> [String] {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
    return names.filter { $0.hasPrefix("replica-") }.sorted().flatMap { name in
      let text = (try? String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8))
      return (text ?? "").split(separator: "\n").filter {
        $0.contains(#""event":"deferred""#) || $0.contains(#""event":"retry_failed""#)
          || $0.contains(#""event":"loop_failed""#)
      }.map { "\(name): \($0)" }
    }
  }

  /// SIGTERMs every replica.
  func terminateAll() async {
    for child in lock.withLock({ children.map(\.child) }) { await child.terminate() }
  }

  private func launch() async throws -> (child: ServeChild, port: Int) {
    let name = lock.withLock { () -> String in
      launches += 1
      return "replica-\(launches).log"
    }
    let child = try ServeChild.launch(binary, folder: folder, logName: name)
    guard let port = await child.port(within: 30) else {
      throw ReplicaDidNotListen(log: child.logText)
    }
    return (child, port)
  }
}

/// A replica started for the fault test never said it listened.
struct ReplicaDidNotListen: Error, CustomStringConvertible {
  let log: String
  var description: String { "a replica did not listen: \(log)" }
}
