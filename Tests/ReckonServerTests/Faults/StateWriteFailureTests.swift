import Foundation
import ReckonAppStore
import ReckonStandIn
import ReckonState
import ReckonTestSupport
import Testing

@testable import ReckonEngine
@testable import ReckonStateSQLite

#if canImport(Glibc)
  import Glibc
#endif

/// The state database stops taking writes and later takes them again: the webhook answers 500
/// while it cannot record (so Apple retries), nothing is decided on a partial write, the sender
/// sends nothing it could not first persist as `sending`, and everything recovers without a
/// restart once writes succeed.
@Suite(.serialized) struct StateWriteFailureTests {
  /// A full disk, for real and unprivileged: the running `reckon serve` gets a 1-byte file-size
  /// limit (RLIMIT_FSIZE, set from here with prlimit), so every write it makes to a file fails
  /// with EFBIG, its log included; raising the limit again is "space returns". The disk fills
  /// while a reply is on the wire, so its answer cannot be recorded either.
  @Test func aFullDiskAnswers500AndEverythingIsDecidedAndSentOnceSpaceReturns() async throws {
    let binary = try CrashRecoveryTests.reckonBinary()
    let (standIn, standInURL) = try TestKey.standIn()
    let authority = try LocalCertificateAuthority()
    let folder = try ServeChild.workspace(standInURL, authority, name: "disk-full")
    let child = try ServeChild.launch(binary, folder: folder)
    let port = try #require(await child.port(within: 30), "reckon serve did not listen")
    let pid = child.pid
    let full = Flag()
    // The first reply reaches the stand-in just as the disk fills; it answers 500, so the entry
    // must be tried again, and the sender cannot record even that answer.
    standIn.respond { _ in
      guard !full.isSet, Self.limitFileSize(pid, to: 1) else { return nil }
      full.set()
      return .serverError
    }
    let first = try ServerFixture.notification(transaction: "4000000001").body(signedBy: authority)
    let second = try ServerFixture.notification(transaction: "4000000002").body(
      signedBy: authority)
    #expect(await ServeChild.post(first, port: port) == 200)
    #expect(await ServerFixture.eventually { full.isSet }, "no send reached the stand-in")

    var whileFull: [Int?] = []
    for _ in 0..<3 {
      whileFull.append(await ServeChild.post(second, port: port))
      try await Task.sleep(nanoseconds: 400_000_000)
    }
    let store = try SQLiteStateStore(
      path: folder.appendingPathComponent("state.sqlite").path, rules: .appStore)
    let recordedWhileFull = try Self.requestCount(store, transaction: "4000000002")
    let sentWhileFull = standIn.requests.count
    let aliveWhileFull = child.process.isRunning

    #expect(Self.limitFileSize(pid, to: rlim_t.max), "could not give the space back")
    let afterwards = await ServeChild.post(second, port: port)
    let delivered = try await ServerFixture.eventually(within: 20) {
      try store.entries(limit: 10).filter { $0.state.name == "sent" }.count == 2
    }
    await child.terminate()
    let log = child.logText

    #expect(aliveWhileFull, "reckon serve died of the full disk: \(log)")
    #expect(whileFull == [500, 500, 500], "answers while full: \(whileFull)")
    #expect(recordedWhileFull == 0, "a request was recorded while nothing could be written")
    #expect(sentWhileFull == 1, "the sender sent what it could not persist as sending first")
    #expect(afterwards == 200)
    #expect(delivered, "not everything was sent after space returned: \(log)")
    #expect(child.process.terminationStatus == 0)
    let entries = try store.entries(limit: 10)
    #expect(Set(entries.map(\.transactionId)) == ["4000000001", "4000000002"])
    for entry in entries {
      #expect(try store.decisionCount(requestId: entry.requestId) == 1)
      let received = standIn.requests.filter { $0.transactionId == entry.transactionId }
      #expect(received.allSatisfy { $0.body == entry.body && $0.problem == nil })
      #expect(received.filter { $0.status == 202 }.count == 1)
    }
    #expect(try Self.requestCount(store, transaction: "4000000002") == 1)
    print(
      "disk full test: answers while full \(whileFull), after \(afterwards.map(String.init) ?? "none"); "
        + "\(standIn.requests.count) requests at the stand-in")
    await ServerFixture.offPool { standIn.shutdown() }
  }

  /// The same with a database that refuses writes (SQLite's `query_only`, in process: a read-only
  /// file cannot be made so for a running process, nor at all for root).
  @Test func aReadOnlyStateDatabaseAnswers500AndEverythingIsSentOnceItIsWritableAgain()
    async throws
  {
    let fixture = try ServerFixture()
    let store = try #require(fixture.service.store as? SQLiteStateStore)
    let readOnly = Flag()
    fixture.standIn.respond { _ in
      guard !readOnly.isSet else { return nil }
      readOnly.set()
      try? store.refuseWrites(true)
      return .serverError
    }
    let first = try fixture.body(ServerFixture.notification(transaction: "5000000001"))
    let second = try fixture.body(ServerFixture.notification(transaction: "5000000002"))
    #expect(try await fixture.post(first).0 == 200)
    #expect(await ServerFixture.eventually { readOnly.isSet })
    let (statusWhileReadOnly, answer) = try await fixture.post(second)
    try await Task.sleep(nanoseconds: 800_000_000)
    let sentWhileReadOnly = fixture.standIn.requests.count
    // Reads still work, so only a write tells a balancer the service cannot take requests.
    let (healthWhileReadOnly, healthBody) = try await fixture.get("/healthz")

    try store.refuseWrites(false)
    // Writable again, and healthy before any request: the check writes itself.
    let healthAfterwards = try await fixture.get("/healthz").0
    let afterwards = try await fixture.post(second).0
    let delivered = try await ServerFixture.eventually(within: 20) {
      try store.entries(limit: 10).filter { $0.state.name == "sent" }.count == 2
    }
    await fixture.stop()
    #expect(statusWhileReadOnly == 500)
    #expect(answer.contains("recording_failed"))
    #expect(healthWhileReadOnly == 503)
    #expect(healthBody.contains(#""state":"not writable""#))
    #expect(!healthBody.contains("readonly"), "SQLite's reason is for the log: \(healthBody)")
    #expect(healthAfterwards == 200)
    #expect(sentWhileReadOnly == 1)
    #expect(afterwards == 200)
    #expect(delivered, "not everything was sent once the database was writable")
    for entry in try store.entries(limit: 10) {
      let received = fixture.standIn.requests.filter { $0.transactionId == entry.transactionId }
      #expect(received.allSatisfy { $0.body == entry.body })
      #expect(received.filter { $0.status == 202 }.count == 1)
    }
  }

  static func requestCount(_ store: SQLiteStateStore, transaction: String) throws -> Int {
    Int(
      try store.connection.query(
        "SELECT COUNT(*) FROM requests WHERE transaction_id = ?", [.text(transaction)]
      ).first?.int(0) ?? 0)
  }

  /// Sets another process's soft file-size limit (the hard limit stays unlimited, so raising it
  /// back needs no privilege). glibc's `prlimit` is not in Swift's Glibc module, hence `dlsym`.
  static func limitFileSize(_ pid: pid_t, to bytes: rlim_t) -> Bool {
    typealias PRLimit =
      @convention(c) (pid_t, Int32, UnsafePointer<rlimit>?, UnsafeMutablePointer<rlimit>?) -> Int32
    guard let symbol = dlsym(nil, "prlimit") else { return false }
    var limit = rlimit(rlim_cur: bytes, rlim_max: rlim_t.max)
    return unsafeBitCast(symbol, to: PRLimit.self)(pid, Int32(RLIMIT_FSIZE.rawValue), &limit, nil)
      == 0
  }
}
