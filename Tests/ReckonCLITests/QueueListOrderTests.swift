import Foundation
import Testing

/// `reckon queue list`: entries that still need something come first, and a list cut short by
/// `--limit` says so on stderr, keeping stdout machine-readable.
struct QueueListOrderTests {
  /// The ID column of a text list.
  static func ids(_ standardOutput: String) -> [String] {
    standardOutput.split(separator: "\n").dropFirst().map { String($0.prefix { $0 != "\t" }) }
  }

  @Test func aHeldEntryIsListedBeforeSentEntriesWithEarlierDeadlines() async throws {
    let fixture = try QueueFixture()
    try fixture.addSent(transactions: ["3001", "3002", "3003"], earlier: 3_600)
    let run = try await fixture.queue(["list"])
    #expect(run.status == 0, "\(run.standardError)")
    // The sent ones (3, 4, 5, of one deadline) latest first: what happened lately stays in view.
    #expect(Self.ids(run.standardOutput) == ["1", "2", "5", "4", "3"], "\(run.standardOutput)")
    #expect(run.standardError.isEmpty, "\(run.standardError)")
  }

  @Test func listShowsAtMostLimitEntriesAndSaysOnStderrHowManyMatch() async throws {
    let fixture = try QueueFixture()
    try fixture.addSent(transactions: ["3001", "3002", "3003"], earlier: 3_600)
    let text = try await fixture.queue(["list", "--limit", "2"])
    #expect(text.status == 0, "\(text.standardError)")
    #expect(Self.ids(text.standardOutput) == ["1", "2"], "\(text.standardOutput)")
    #expect(
      text.standardError == "showing 2 of 5 entries; use --limit or --status to see others\n")

    let json = try await fixture.queue(["list", "--limit", "2", "--format", "json"])
    let array = try #require(
      try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [[String: Any]])
    #expect(array.compactMap { $0["id"] as? Int } == [1, 2])
    #expect(
      json.standardError == "showing 2 of 5 entries; use --limit or --status to see others\n")

    let sent = try await fixture.queue(["list", "--status", "sent", "--limit", "1"])
    #expect(Self.ids(sent.standardOutput) == ["5"], "\(sent.standardOutput)")
    #expect(sent.standardError == "showing 1 of 3 sent entries; use --limit to see others\n")
  }

  @Test func listSaysNothingOnStderrWhenTheLimitShowsEveryEntry() async throws {
    let fixture = try QueueFixture()
    let run = try await fixture.queue(["list", "--limit", "2"])
    #expect(Self.ids(run.standardOutput) == ["1", "2"], "\(run.standardOutput)")
    #expect(run.standardError.isEmpty, "\(run.standardError)")
  }

  @Test func listShowsAThousandEntriesUnlessToldOtherwise() async throws {
    let fixture = try QueueFixture()
    try fixture.addSent(transactions: (0..<999).map { "4\($0)" }, earlier: 3_600)
    let run = try await fixture.queue(["list", "--format", "json"])
    let array = try #require(
      try JSONSerialization.jsonObject(with: Data(run.standardOutput.utf8)) as? [Any])
    #expect(array.count == 1_000)
    #expect(
      run.standardError == "showing 1000 of 1001 entries; use --limit or --status to see others\n")
  }

  @Test(arguments: ["0", "-3", "ten", "1.5", ""])
  func aLimitThatIsNotAPositiveWholeNumberIsAUsageError(limit: String) async throws {
    let fixture = try QueueFixture()
    let run = try await fixture.queue(["list", "--limit=\(limit)"])
    #expect(run.status == 2)
    let said =
      limit.isEmpty
      ? "--limit was given an empty value"
      : "--limit must be a positive whole number, not '\(limit)'"
    #expect(run.standardError.contains(said), "\(run.standardError)")
    #expect(run.standardOutput.isEmpty)
  }
}
