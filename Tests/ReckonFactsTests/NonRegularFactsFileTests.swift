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
    #expect(Date().timeIntervalSince(started) < 2)
    #expect(source.lookup(Fixtures.keys(transaction: "1")) == ["usage.consumed": .percent(40)])
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
    #expect(Date().timeIntervalSince(started) < 2)
  }
}
