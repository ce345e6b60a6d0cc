import Foundation
import ReckonFacts
import ReckonPolicy
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// A facts path that names a FIFO or a device is refused at once, by either kind of source, and
/// a JSON facts file over `limits.factsFileBytes` is refused naming the setting.
struct NonRegularFactsFileTests {
  @Test func aJSONFactsFileReplacedByAFIFOFailsTheSourceAtOnce() async throws {
    let file = try Fixtures.temporaryFolder().appendingPathComponent("facts.json")
    try Fixtures.write(#"{"byTransactionId": {"1": {"usage.consumed": "40%"}}}"#, to: file)
    let source = try JSONFileFactSource(name: "notes", path: file.path, schema: .standard)
    unlink(file.path)
    #expect(mkfifo(file.path, 0o600) == 0)
    let started = Date()
    await #expect {
      try await source.facts(for: Fixtures.keys(transaction: "1"))
    } throws: { error in
      "\(error)".contains("is a FIFO (named pipe), not a regular file")
    }
    #expect(Date().timeIntervalSince(started) < 5)
    #expect(try source.lookup(Fixtures.keys(transaction: "1")) == ["usage.consumed": .percent(40)])
  }

  @Test func aJSONFactsFileOverItsLimitIsRefusedNamingTheSetting() throws {
    let file = try Fixtures.temporaryFolder().appendingPathComponent("facts.json")
    try Fixtures.write(#"{"byTransactionId": {"1": {"usage.consumed": "40%"}}}"#, to: file)
    #expect {
      try JSONFileFactSource(
        name: "notes", path: file.path, schema: .standard, limit: .facts.raised(to: 10))
    } throws: { error in
      "\(error)".contains(
        "over the 10 bytes limit for facts files (limits.factsFileBytes raises it)")
    }
  }

  @Test func aSQLiteFactsPathThatIsAFIFOIsRefusedAtOnce() throws {
    let path = try Fixtures.temporaryFolder().appendingPathComponent("facts.sqlite").path
    #expect(mkfifo(path, 0o600) == 0)
    let started = Date()
    #expect(throws: (any Error).self) {
      try SQLiteFactSource(
        name: "app-db", settings: .init(path: path, queries: Fixtures.exampleQueries()),
        schema: Fixtures.schema)
    }
    #expect(Date().timeIntervalSince(started) < 5)
  }
}

/// A large facts file that changed is re-read beside the lookups: they answer from the version
/// before until it has read, instead of each waiting for it.
struct BackgroundReloadTests {
  @Test func lookupsAnswerFromTheVersionBeforeWhileALargeEditIsRead() async throws {
    let file = try Fixtures.temporaryFolder().appendingPathComponent("facts.json")
    try Fixtures.write(#"{"byTransactionId": {"1": {"usage.consumed": "40%"}}}"#, to: file)
    let source = try JSONFileFactSource(name: "notes", path: file.path, schema: .standard)
    // Written on a thread of its own: built on the pool, the file's seconds of work in a debug
    // build would hold one of its threads from every other test.
    try await Self.offPool {
      var text = #"{"byTransactionId": {"1": {"usage.consumed": "75%"}"#
      for index in 0..<150_000 {
        text +=
          #", "t\#(index)": {"usage.consumed": "\#(index % 100)%", "customer.consented": true}"#
      }
      try Fixtures.write(text + "}}", to: file)
    }
    // The read takes seconds in a debug build; the lookup waits only its short turn, and
    // answers from the version before.
    let first = try await source.facts(for: Fixtures.keys(transaction: "1"))
    #expect(first == ["usage.consumed": .percent(40)])
    var latest = first
    let limit = ContinuousClock.now + .seconds(120)
    while latest != ["usage.consumed": .percent(75)], ContinuousClock.now < limit {
      try await Task.sleep(for: .milliseconds(100))
      latest = try await source.facts(for: Fixtures.keys(transaction: "1"))
    }
    #expect(latest == ["usage.consumed": .percent(75)])
  }

  static func offPool(_ work: @escaping @Sendable () throws -> Void) async throws {
    try await withCheckedThrowingContinuation {
      (continuation: CheckedContinuation<Void, any Error>) in
      Thread { continuation.resume(with: Result { try work() }) }.start()
    }
  }

  @Test func aSmallEditCountsAtTheNextLookup() async throws {
    let file = try Fixtures.temporaryFolder().appendingPathComponent("facts.json")
    try Fixtures.write(#"{"byTransactionId": {"1": {"usage.consumed": "40%"}}}"#, to: file)
    let source = try JSONFileFactSource(name: "notes", path: file.path, schema: .standard)
    try Fixtures.write(#"{"byTransactionId": {"1": {"usage.consumed": "75%"}}}"#, to: file)
    #expect(
      try await source.facts(for: Fixtures.keys(transaction: "1")) == [
        "usage.consumed": .percent(75)
      ])
  }
}
