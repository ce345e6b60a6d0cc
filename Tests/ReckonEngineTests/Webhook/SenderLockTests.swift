import Foundation
import ReckonAppStore
import ReckonState
import ReckonStateSQLite
import ReckonTestSupport
import Testing

@testable import ReckonEngine

/// One sender per state database: `ReckonService.runSender` holds the database's `SenderLock`
/// while it runs, so a second service (in this process or another) sends nothing meanwhile.
@Suite struct SenderLockTests {
  static func statePath() -> String {
    TestScratch.folder.appendingPathComponent("reckon-lock-\(UUID().uuidString).sqlite").path
  }

  /// flock locks belong to an open file description: a second open in the same process conflicts.
  @Test func twoLocksOnOneStateDatabaseInOneProcessConflict() throws {
    let path = Self.statePath()
    let first = try SenderLock(statePath: path)
    let error = try #require(throws: SenderLockError.self) { try SenderLock(statePath: path) }
    #expect(error == .heldByAnotherSender(path: path + ".send.lock"))
    #expect(error.description.contains("only one sender may use a state database at a time"))
    first.release()
    #expect(!first.isHeld)
    let second = try SenderLock(statePath: path)
    #expect(second.isHeld)
  }

  /// A second configuration reaching the database through a symbolic link (to its folder or to
  /// the file) takes the same lock, so it cannot start a second sender.
  @Test(arguments: [true, false])
  func aStateDatabaseReachedThroughASymbolicLinkHasTheSameLock(linkTheFolder: Bool) throws {
    let folder = TestScratch.folder.appendingPathComponent("lock-\(UUID().uuidString)")
    let real = folder.appendingPathComponent("real")
    try FileManager.default.createDirectory(at: real, withIntermediateDirectories: true)
    let path = real.appendingPathComponent("reckon-state.sqlite").path
    try #require(FileManager.default.createFile(atPath: path, contents: Data()))
    let linked: String
    if linkTheFolder {
      let link = folder.appendingPathComponent("linked")
      try FileManager.default.createSymbolicLink(at: link, withDestinationURL: real)
      linked = link.appendingPathComponent("reckon-state.sqlite").path
    } else {
      linked = folder.appendingPathComponent("link.sqlite").path
      try FileManager.default.createSymbolicLink(atPath: linked, withDestinationPath: path)
    }
    let first = try SenderLock(statePath: path)
    defer { first.release() }
    #expect(SenderLock.path(forState: linked) == first.path)
    #expect(throws: SenderLockError.heldByAnotherSender(path: first.path)) {
      try SenderLock(statePath: linked)
    }
  }

  @Test func aLockThatIsNoLongerReferencedIsReleased() throws {
    let path = Self.statePath()
    do { _ = try SenderLock(statePath: path) }
    #expect(try SenderLock(statePath: path).isHeld)
  }

  @Test func aLockFileThatCannotBeCreatedSaysWhy() throws {
    let path = "/nonexistent-\(UUID())/state.sqlite"
    let error = try #require(throws: SenderLockError.self) { try SenderLock(statePath: path) }
    #expect(error == .cannotOpen(path: path + ".send.lock", reason: "no such file or folder"))
  }

  @Test func aSecondServiceOnTheSameDatabaseSendsNothingWhileTheFirstSends() async throws {
    let path = Self.statePath()
    let firstSends = CountingSender()
    let secondSends = CountingSender()
    let first = try WebhookFixture(statePath: path, sender: firstSends)
    let second = try WebhookFixture(statePath: path, sender: secondSends)
    #expect(await first.service.answer(body: try first.body()).verdict == .decided)
    let stopFirst = Flag()
    let running = Task { try await first.service.runSender(pollInterval: 0.02) { stopFirst.isSet } }
    #expect(await Self.eventually { firstSends.count == 1 })

    // The first run holds the lock: the second refuses at once and sends nothing.
    let refusal = await #expect(throws: SenderLockError.self) {
      try await second.service.runSender(pollInterval: 0.02) { false }
    }
    #expect(refusal == .heldByAnotherSender(path: path + ".send.lock"))
    var another = SimulatedNotification()
    another.transactionId = "2000000899999999"
    #expect(await second.service.answer(body: try second.body(another)).verdict == .decided)
    #expect(await Self.eventually { firstSends.count == 2 })
    #expect(secondSends.count == 0)

    // Once the first run has stopped, the second runs and sends.
    stopFirst.set()
    try await running.value
    var third = SimulatedNotification()
    third.transactionId = "2000000877777777"
    #expect(await second.service.answer(body: try second.body(third)).verdict == .decided)
    // Bounded, so a regression fails here instead of hanging the run.
    let until = Date().addingTimeInterval(10)
    try await second.service.runSender(pollInterval: 0.02) {
      secondSends.count == 1 || Date() > until
    }
    #expect(secondSends.count == 1)
    #expect(firstSends.count == 2)
  }

  @Test func theLockIsReleasedWhenTheSenderRunThrows() async throws {
    let path = Self.statePath()
    let sends = CountingSender()
    let fixture = try WebhookFixture(statePath: path, sender: sends)
    #expect(await fixture.service.answer(body: try fixture.body()).verdict == .decided)
    let running = Task { try await fixture.service.runSender(pollInterval: 0.02) { false } }
    #expect(await Self.eventually { sends.count == 1 })
    #expect(throws: SenderLockError.self) { try SenderLock(statePath: path) }
    // Cancelled, the run's sleep throws and the run ends with the error.
    running.cancel()
    await #expect(throws: CancellationError.self) { try await running.value }
    #expect(try SenderLock(statePath: path).isHeld)
  }

  @Test func aLockTakenBeforehandIsHeldByTheRunAndReleasedWhenItEnds() async throws {
    let path = Self.statePath()
    let sends = CountingSender()
    let fixture = try WebhookFixture(statePath: path, sender: sends)
    #expect(await fixture.service.answer(body: try fixture.body()).verdict == .decided)
    let lock = try SenderLock(statePath: path)
    try await fixture.service.runSender(pollInterval: 0.02, holding: lock) { sends.count == 1 }
    #expect(sends.count == 1)
    #expect(!lock.isHeld)
    #expect(try SenderLock(statePath: path).isHeld)
  }

  @Test func aServiceWithoutASenderTakesNoLock() async throws {
    let path = Self.statePath()
    let fixture = try WebhookFixture(statePath: path)
    let other = try SenderLock(statePath: path)
    // Returns at once without throwing: it did not try to take the lock `other` holds.
    try await fixture.service.runSender { false }
    #expect(throws: SenderLockError.self) { try SenderLock(statePath: path) }
    other.release()
  }

  @Test func aReleasedLockOrAnotherDatabasesIsRefusedRatherThanSentUnder() async throws {
    let path = Self.statePath()
    let sends = CountingSender()
    let fixture = try WebhookFixture(statePath: path, sender: sends)
    #expect(await fixture.service.answer(body: try fixture.body()).verdict == .decided)
    let released = try SenderLock(statePath: path)
    released.release()
    let stale = await #expect(throws: SenderLockError.self) {
      try await fixture.service.runSender(pollInterval: 0.02, holding: released) { false }
    }
    #expect(stale == .notHeld(path: path + ".send.lock"))
    let elsewhere = try SenderLock(statePath: Self.statePath())
    await #expect(throws: SenderLockError.self) {
      try await fixture.service.runSender(pollInterval: 0.02, holding: elsewhere) { false }
    }
    #expect(sends.count == 0)
  }

  static func eventually(within seconds: Double = 10, _ condition: () -> Bool) async -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
      if condition() { return true }
      try? await Task.sleep(nanoseconds: 10_000_000)
    }
    return condition()
  }
}

/// Accepts every reply, counting them.
final class CountingSender: ConsumptionSender, @unchecked Sendable {
  private let lock = NSLock()
  private var sent = 0

  var count: Int { lock.withLock { sent } }

  func send(_ body: ValidatedConsumptionBody, transactionId: String, app: AppStoreApp) async
    -> ConsumptionDelivery
  {
    lock.withLock { sent += 1 }
    return .answered(ConsumptionAnswer(status: 202))
  }
}

/// A flag set once, read from any thread.
final class Flag: @unchecked Sendable {
  private let lock = NSLock()
  private var value = false

  var isSet: Bool { lock.withLock { value } }
  func set() { lock.withLock { value = true } }
}
