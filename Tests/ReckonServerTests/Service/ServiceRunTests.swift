import Foundation
import ReckonAppStore
import ReckonEngine
import ReckonFacts
import ReckonPolicy
import ReckonStandIn
import ReckonState
import ReckonStateSQLite
import ReckonSupport
import ReckonTestSupport
import Synchronization
import Testing

/// `ReckonService.run()` is the one call an embedder makes for everything beside the route:
/// each loop acts while it runs, and once the calling task is cancelled nothing more goes out
/// and the sender lock is free for the next service.
struct ServiceRunTests {
  @Test func everyLoopActsWhileRunningAndNothingAfterCancellation() async throws {
    let world = try RunWorld()
    defer { world.standIn.shutdown() }
    let service = try world.service()
    let running = Task { try await service.run(intervals: RunWorld.intervals) }

    // The sender: a decided reply reaches the local App Store stand-in.
    #expect(await world.answer(service, transaction: "1001").status == 200)
    #expect(await world.eventually { world.standIn.requests.count == 1 }, "sent")
    // The retry: a request its fact source failed on is decided by the retry loop.
    world.facts.failNext()
    #expect(await world.answer(service, transaction: "1002").verdict == .deferred)
    #expect(await world.eventually { world.events.decided("1002") }, "retried")
    #expect(await world.eventually { world.standIn.requests.count == 2 })
    // The policy watcher: an edited policy goes live without being asked.
    try RunWorld.policy(version: "2").write(
      toFile: world.policyPath, atomically: true, encoding: .utf8)
    #expect(await world.eventually { world.events.has("policy_applied") }, "reloaded")
    // Pruning: a notification recorded long ago is removed.
    #expect(await world.eventually { world.events.has("pruned") }, "pruned")
    #expect(try world.store.hasNotification(uuid: RunWorld.oldUUID) == false)
    // The sender holds the lock while it runs: a second service refuses to run beside it.
    let second = try world.service()
    await #expect(throws: SenderLockError.self) { try await second.run() }

    running.cancel()
    try await running.value
    let sent = world.standIn.requests.count
    // Stopped: a reply decided now stays queued, and the retry loop decides nothing more.
    #expect(await world.answer(service, transaction: "1003").verdict == .decided)
    world.facts.failNext()
    _ = await world.answer(service, transaction: "1004")
    try await Task.sleep(for: .milliseconds(600))
    #expect(world.standIn.requests.count == sent, "no send after cancellation")
    #expect(!world.events.decided("1004"), "no retry after cancellation")
    #expect(service.stoppedLoops.isEmpty)

    // The lock is released: the second service takes it and sends what the first left.
    let taken = Task { try await second.run(intervals: RunWorld.intervals) }
    #expect(await world.eventually { world.standIn.requests.count == sent + 2 }, "second sends")
    taken.cancel()
    try await taken.value
  }

  @Test func aRetriedRequestAndItsSendLogUnderTheIdItArrivedWith() async throws {
    let world = try RunWorld()
    defer { world.standIn.shutdown() }
    let service = try world.service()
    let running = Task { try await service.run(intervals: RunWorld.intervals) }
    world.facts.failNext()
    let answer = await world.answer(service, transaction: "1102")
    #expect(answer.verdict == .deferred)
    #expect(
      await world.eventually { world.standIn.requests.count == 1 },
      "retried and sent; stopped loops \(service.stoppedLoops), events \(world.events.names)")
    running.cancel()
    try await running.value
    let about = world.events.about("1102")
    #expect(about.map(\.name) == ["decided", "sender"], "\(about)")
    #expect(about.allSatisfy { $0.requestId == answer.correlationId }, "\(about)")
    #expect(answer.correlationId != nil)
  }

  /// The start-up pass decides at once what an earlier service left undecided, never what this
  /// one received: a webhook listens before its loops start, and a request it was still
  /// handling would be decided by the pass, answered as a duplicate and logged under two ids.
  @Test func theStartUpPassDecidesWhatAnEarlierServiceLeftNotWhatThisOneReceived() async throws {
    let world = try RunWorld()
    defer { world.standIn.shutdown() }
    world.facts.failNext()
    #expect(await world.answer(try world.service(), transaction: "1201").verdict == .deferred)
    let service = try world.service()
    world.facts.failNext()
    #expect(await world.answer(service, transaction: "1202").verdict == .deferred)
    var intervals = RunWorld.intervals
    intervals.retry = 600
    let running = Task { try await service.run(intervals: intervals) }
    #expect(await world.eventually { world.events.decided("1201") }, "\(world.events.names)")
    // The pass goes on while it decides something: time to have taken up 1202 as well.
    try await Task.sleep(for: .milliseconds(500))
    running.cancel()
    try await running.value
    #expect(!world.events.decided("1202"), "\(world.events.names)")
  }

  @Test func aLoopThatFailsIsNamedAndTheOthersGoOn() async throws {
    let world = try RunWorld()
    defer { world.standIn.shutdown() }
    let service = try world.service()
    // Another state database's lock keeps no sender of this one away: the sender refuses it.
    let other = try RunWorld.anotherStatesLock()
    defer { other.release() }
    let running = Task { try await service.run(intervals: RunWorld.intervals, holding: other) }
    #expect(await world.eventually { service.stoppedLoops == ["sender"] })
    #expect(world.events.has("loop_failed"))
    try RunWorld.policy(version: "3").write(
      toFile: world.policyPath, atomically: true, encoding: .utf8)
    #expect(await world.eventually { world.events.has("policy_applied") }, "others go on")
    running.cancel()
    try await running.value
  }
}

extension ServiceRunTests {
  /// The version of the policy `service` decides by now.
  static func liveVersion(_ service: ReckonService) -> String? {
    for case .policyLive(let policy) in service.policies.live() { return policy.version }
    return nil
  }

  /// A second process on the state, run as a standby, reloads policies while the first sends,
  /// and sends itself once the first stops.
  @Test func aStandbyRunsTheOtherLoopsAndSendsOnceTheSenderStops() async throws {
    let world = try RunWorld()
    defer { world.standIn.shutdown() }
    var intervals = RunWorld.intervals
    intervals.senderStandby = 0.1
    let first = try world.service()
    let sending = Task { try await first.run(intervals: intervals) }
    #expect(await world.answer(first, transaction: "1300").verdict == .decided)
    #expect(await world.eventually { world.standIn.requests.count == 1 }, "the first sends")
    let standby = try world.service()
    let standingBy = Task { try await standby.run(intervals: intervals, standby: true) }
    #expect(await world.eventually { Self.has(world, \.isStandingBy) }, "\(world.events.names)")
    try RunWorld.policy(version: "2").write(
      toFile: world.policyPath, atomically: true, encoding: .utf8)
    #expect(await world.eventually { Self.liveVersion(standby) == "2" }, "the standby reloads")
    sending.cancel()
    try await sending.value
    #expect(await world.answer(standby, transaction: "1301").verdict == .decided)
    #expect(await world.eventually { world.standIn.requests.count == 2 }, "the standby sends")
    standingBy.cancel()
    try await standingBy.value
    #expect(Self.has(world, \.hasTakenOver))
    #expect(standby.stoppedLoops.isEmpty)
  }

  /// Whether a sender event of the world's services is `kind`.
  static func has(_ world: RunWorld, _ kind: (SenderEvent) -> Bool) -> Bool {
    world.events.all.contains { if case .sender(let event) = $0 { kind(event) } else { false } }
  }

  /// A loop that stopped in one run is running again in the next, so `/healthz` turns healthy.
  @Test func aNewRunForgetsTheLoopsTheLastOneStopped() async throws {
    let world = try RunWorld()
    defer { world.standIn.shutdown() }
    let service = try world.service()
    let other = try RunWorld.anotherStatesLock()
    defer { other.release() }
    let failing = Task { try await service.run(intervals: RunWorld.intervals, holding: other) }
    #expect(await world.eventually { service.stoppedLoops == ["sender"] })
    failing.cancel()
    try await failing.value
    let running = Task { try await service.run(intervals: RunWorld.intervals) }
    #expect(await world.answer(service, transaction: "1401").verdict == .decided)
    #expect(await world.eventually { world.standIn.requests.count == 1 })
    #expect(service.stoppedLoops.isEmpty)
    running.cancel()
    try await running.value
  }
}

extension SenderEvent {
  var isStandingBy: Bool { if case .standingBy = self { true } else { false } }
  var hasTakenOver: Bool { if case .tookOver = self { true } else { false } }
}

/// A state database, a policy file, a fact source that can be made to fail once, the local App
/// Store stand-in, and the events of the services built over them.
final class RunWorld: Sendable {
  static let oldUUID = "00000000-0000-4000-8000-000000000001"
  static var intervals: ReckonService.Intervals {
    var intervals = ReckonService.Intervals()
    intervals.senderPoll = 0.05
    intervals.retry = 0.1
    intervals.policyPoll = 0.05
    intervals.firstPrune = 0.1
    intervals.leadership = 0.1
    return intervals
  }

  let authority: LocalCertificateAuthority
  let standIn: AppStoreStandIn
  let url: URL
  let statePath: String
  let policyPath: String
  let store: SQLiteStateStore
  let facts = FlakyFacts()
  let events = EventLog()

  init() throws {
    authority = try LocalCertificateAuthority()
    (standIn, url) = try TestKey.standIn()
    let folder = TestScratch.folder
    statePath = folder.appendingPathComponent("run-\(UUID()).sqlite").path
    policyPath = folder.appendingPathComponent("run-\(UUID()).policy").path
    try Self.policy(version: "1").write(toFile: policyPath, atomically: true, encoding: .utf8)
    store = try SQLiteStateStore(path: statePath, rules: .appStore, backgroundCheckpoints: true)
    // Long before any `keepDays` keeps.
    _ = try store.recordNotification(
      NotificationRecord(
        notificationUUID: Self.oldUUID, notificationType: "TEST", transactionId: nil,
        bundleId: TestKey.bundleId, environment: "Sandbox",
        receivedAt: Date().addingTimeInterval(-400 * 86_400), rawNotification: Data("{}".utf8)))
  }

  static func policy(version: String) -> String {
    """
    policy "run"
    version \(version)
    otherwise refund DECLINE
    """
  }

  /// A service over the world's state; each call opens the database again, as a second
  /// process would.
  func service() throws -> ReckonService {
    let events = events
    return try ReckonService(
      apps: [
        .init(
          bundleId: TestKey.bundleId, appAppleId: nil, environment: .sandbox,
          policy: .file(policyPath))
      ],
      factSources: [.init(facts, timeout: .seconds(2))],
      state: try SQLiteStateStore(path: statePath, rules: .appStore, backgroundCheckpoints: true),
      roots: [authority.root], sender: try TestKey.client(url),
      senderConfiguration: try SenderSettings.fast(sandboxPerSecond: 100, initialBackoff: 0.2),
      keepDays: 30, events: { events.append($0) })
  }

  /// Posts a signed CONSUMPTION_REQUEST for `transaction` to `service`.
  func answer(_ service: ReckonService, transaction: String) async -> WebhookAnswer {
    var notification = SimulatedNotification()
    notification.bundleId = TestKey.bundleId
    notification.environment = "Sandbox"
    notification.appAppleId = nil
    notification.transactionId = transaction
    standIn.register(
      transaction,
      ConsumptionValidationContext(productType: ProductType(rawValue: notification.productType)))
    // Signing with the local CA cannot fail for a notification built here.
    return await service.answer(body: try! notification.body(signedBy: authority))
  }

  /// The sender lock of another state database, which keeps no sender of this world's away.
  static func anotherStatesLock() throws -> SenderLock {
    try SenderLock(
      statePath: TestScratch.folder.appendingPathComponent("other-\(UUID()).sqlite").path)
  }

  /// Waits up to 30 seconds for `condition`: the loops run on the test runner's two pool
  /// threads beside every other suite, which can keep them waiting for seconds.
  func eventually(_ condition: () -> Bool) async -> Bool {
    let deadline = Date().addingTimeInterval(30)
    while Date() < deadline {
      if condition() { return true }
      try? await Task.sleep(for: .milliseconds(20))
    }
    return condition()
  }
}

/// Consented, delivered, 10% used; fails the next lookup when told to.
final class FlakyFacts: FactSource {
  let name = "app-db"
  private let failing = Mutex(false)

  /// Makes the next lookup fail.
  func failNext() { failing.withLock { $0 = true } }

  func facts(for keys: RequestKeys) async throws -> [String: Value] {
    if failing.withLock({ failing in
      defer { failing = false }
      return failing
    }) {
      throw FlakyFactsError.down
    }
    return [
      "customer.consented": .boolean(true),
      "delivery.status": .enumeration(FactSchema.deliveryStatus.ordinal(of: "DELIVERED") ?? 0),
      "product.sample_offered": .boolean(false),
      "usage.consumed": .percent(10),
    ]
  }
}

enum FlakyFactsError: Error { case down }

/// The events services reported, each with the request id of the line it would be logged on.
final class EventLog: Sendable {
  private let events = Mutex<[(event: ReckonEvent, requestId: String?)]>([])

  func append(_ event: ReckonEvent) {
    let id = RequestLogContext.current?.id
    events.withLock { $0.append((event, id)) }
  }

  /// The names of the events so far, in order.
  var names: [String] { events.withLock { $0.map(\.event.name) } }

  /// The events so far, in order.
  var all: [ReckonEvent] { events.withLock { $0.map(\.event) } }

  func has(_ name: String) -> Bool { events.withLock { $0.contains { $0.event.name == name } } }

  /// Whether a request for `transaction` was decided.
  func decided(_ transaction: String) -> Bool {
    events.withLock {
      $0.contains {
        if case .decided(_, transaction, _, _, _, _, _) = $0.event { true } else { false }
      }
    }
  }

  /// The names and request ids of the events that name `transaction`.
  func about(_ transaction: String) -> [(name: String, requestId: String?)] {
    events.withLock {
      $0.filter { $0.event.fields["transactionId"] == .string(transaction) }
        .map { ($0.event.name, $0.requestId) }
    }
  }
}
