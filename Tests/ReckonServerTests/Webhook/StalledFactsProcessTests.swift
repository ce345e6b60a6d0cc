import Foundation
import ReckonAppStore
import ReckonSQLite
import ReckonTestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// `reckon serve` whose facts stall (the facts file replaced by a FIFO, the facts database
/// locked by another process for longer than any timeout) answers every notification within
/// the source's timeout, says so in `/healthz`, and stops on SIGTERM within its grace period.
@Suite(.serialized) struct StalledFactsProcessTests {
  static func notification(_ index: Int) -> SimulatedNotification {
    var notification = SimulatedNotification()
    notification.bundleId = TestKey.bundleId
    notification.environment = "Sandbox"
    notification.appAppleId = nil
    notification.transactionId = "300000000000\(index)"
    return notification
  }

  /// Posts `count` notifications one after another; the statuses and the slowest answer.
  static func post(_ count: Int, port: Int, authority: LocalCertificateAuthority) async throws
    -> ([Int?], Duration)
  {
    var statuses: [Int?] = []
    var slowest: Duration = .zero
    for index in 0..<count {
      let body = try notification(index).body(signedBy: authority)
      let started = ContinuousClock.now
      statuses.append(await ServeChild.post(body, port: port, wait: 20))
      slowest = max(slowest, ContinuousClock.now - started)
    }
    return (statuses, slowest)
  }

  /// SIGTERM, and how long the process took to exit.
  static func stop(_ child: ServeChild) async -> Duration {
    let started = ContinuousClock.now
    await child.terminate()
    return ContinuousClock.now - started
  }

  @Test func aFactsFileReplacedByAFIFOStallsNothing() async throws {
    let binary = try CrashRecoveryTests.reckonBinary()
    let (standIn, standInURL) = try TestKey.standIn()
    defer { standIn.shutdown() }
    let authority = try LocalCertificateAuthority()
    let folder = try ServeChild.workspace(
      standInURL, authority, name: "facts-fifo",
      factSource: #"{"name": "notes", "type": "json", "path": "facts.json", "timeoutMs": 500}"#)
    try #"{"byTransactionId": {}}"#.write(
      to: folder.appendingPathComponent("facts.json"), atomically: true, encoding: .utf8)
    let child = try ServeChild.launch(binary, folder: folder)
    defer { kill(child.pid, SIGKILL) }
    let port = try #require(await child.port(within: 20), "\(child.logText)")
    let facts = folder.appendingPathComponent("facts.json").path
    unlink(facts)
    #expect(mkfifo(facts, 0o600) == 0)
    let (statuses, slowest) = try await Self.post(6, port: port, authority: authority)
    let stopped = await Self.stop(child)
    #expect(statuses.allSatisfy { $0 == 200 }, "\(statuses)\n\(child.logText)")
    #expect(slowest < .seconds(5), "slowest answer \(slowest)")
    #expect(stopped < .seconds(9), "stopping took \(stopped)")
    #expect(child.logText.contains("is a FIFO (named pipe), not a regular file"))
  }

  @Test func aLockedFactsDatabaseIsHungInHealthAndSIGTERMStopsWithinTheGrace() async throws {
    let binary = try CrashRecoveryTests.reckonBinary()
    let (standIn, standInURL) = try TestKey.standIn()
    defer { standIn.shutdown() }
    let authority = try LocalCertificateAuthority()
    let query = #"SELECT used AS \"usage.consumed\" FROM usage WHERE id = :transaction_id"#
    let folder = try ServeChild.workspace(
      standInURL, authority, name: "facts-locked",
      factSource: """
        {"name": "app-db", "type": "sqlite", "path": "facts.sqlite", "timeoutMs": 300,
         "busyTimeoutMs": 120000, "queries": {"usage": "\(query)"}}
        """)
    let path = folder.appendingPathComponent("facts.sqlite").path
    let database = try SQLiteDatabase(path: path, options: [.readWrite, .create, .noMutex])
    try database.execute("CREATE TABLE usage (id TEXT, used REAL)")
    let config = folder.appendingPathComponent("reckon.json")
    try String(contentsOf: config, encoding: .utf8)
      .replacingOccurrences(
        of: #""listen": "127.0.0.1:0""#,
        with: #""listen": "127.0.0.1:0", "shutdownGraceSeconds": 2"#
      )
      .write(to: config, atomically: true, encoding: .utf8)
    let child = try ServeChild.launch(binary, folder: folder)
    defer { kill(child.pid, SIGKILL) }
    let port = try #require(await child.port(within: 20), "\(child.logText)")
    // Another process's write lock, held far longer than busyTimeoutMs would wait.
    try database.execute("BEGIN EXCLUSIVE")
    let (statuses, slowest) = try await Self.post(6, port: port, authority: authority)
    let health = try await ServerFixture.get(port: port, "/healthz")
    let stopped = await Self.stop(child)
    try database.execute("ROLLBACK")
    #expect(statuses.allSatisfy { $0 == 200 }, "\(statuses)\n\(child.logText)")
    #expect(slowest < .seconds(5), "slowest answer \(slowest)")
    #expect(health.contains(#""facts":"hung","sources":["app-db"]"#), "\(health)")
    #expect(stopped < .seconds(6), "stopping took \(stopped)")
  }
}
