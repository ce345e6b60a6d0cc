import Foundation
import Testing

@testable import ReckonStateSQLite

/// `reckon queue show` says when a waiting entry is tried next, and `reckon queue list` tells a
/// transaction's Production and Sandbox entries apart.
struct QueueShowStateTests {
  @Test func showSaysWhenAPendingEntryWaitingToRetryIsTriedNext() async throws {
    let fixture = try QueueFixture()
    let next = Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down) + 600)
    try fixture.postponePending(until: next)
    let stamp = ISO8601DateFormatter().string(from: next)
    let text = try await fixture.queue(["show", "2"]).standardOutput
    #expect(text.hasPrefix("entry 2: pending, next try at \(stamp)\n"), "\(text)")
    let json = try await fixture.queue(["show", "2", "--format", "json"]).standardOutput
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
    #expect(object["nextTryAt"] as? String == stamp, "\(json)")
  }

  @Test func showSaysSinceForAPendingEntryThatIsDueNow() async throws {
    let fixture = try QueueFixture()
    let text = try await fixture.queue(["show", "2"]).standardOutput
    let since = ISO8601DateFormatter().string(from: fixture.received)
    #expect(text.hasPrefix("entry 2: pending since \(since)\n"), "\(text)")
  }

  @Test func listHasAnEnvironmentColumnTellingProductionFromSandbox() async throws {
    let fixture = try QueueFixture()
    try fixture.addSandbox(transaction: "2002")
    let run = try await fixture.queue(["list"])
    #expect(run.status == 0, "\(run.standardError)")
    let rows = run.standardOutput.split(separator: "\n").map {
      $0.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
    }
    #expect(rows.first?.prefix(5) == ["ID", "STATE", "TRANSACTION", "APP", "ENV"], "\(rows)")
    let transaction2002 = rows.dropFirst().filter { $0.count > 4 && $0[2] == "2002" }
    #expect(Set(transaction2002.map { $0[4] }) == ["Production", "Sandbox"], "\(rows)")
  }

  @Test func showOfASentEntryCountsFailedTriesAndNamesApplesLastAnswer() async throws {
    let fixture = try QueueFixture()
    try fixture.addSent(transactions: ["2003"], earlier: 10)
    let text = try await fixture.queue(["show", "3"]).standardOutput
    #expect(
      text.contains("\nfailed tries: 0, sends interrupted by a crash: 0; last answer: HTTP 202\n"),
      "\(text)")
    let padded = text.split(separator: "\n").filter { $0.last == " " }
    #expect(padded.isEmpty, "lines ending in a space: \(padded)")
  }

  /// A row in a state this Reckon does not write is named, not taken for an empty outbox or a
  /// missing entry.
  @Test func anEntryThatDoesNotReadIsSaidToBeThere() async throws {
    let fixture = try QueueFixture()
    try SQLiteStateStore(path: fixture.statePath, rules: .appStore).connection.query(
      "UPDATE outbox SET state = 'bogus' WHERE id = 2")
    let list = try await fixture.queue(["list"])
    #expect(list.status == 0)
    #expect(
      list.standardError.contains("1 entry in the outbox could not be read"),
      "\(list.standardError)")
    let show = try await fixture.queue(["show", "2"])
    #expect(show.status == 1)
    #expect(
      show.standardError.contains(
        "outbox entry 2 in the state database cannot be read: its state 'bogus'"),
      "\(show.standardError)")
  }

  /// A row that does not read still takes a place on the page: a page cut short by it still
  /// says how many entries there are.
  @Test func aPageCutShortBesideAnUnreadableRowSaysSo() async throws {
    let fixture = try QueueFixture()
    try fixture.addSent(transactions: ["2003"], earlier: 10)
    // Latest deadline of all, so it is the finished entry the page reaches first.
    try SQLiteStateStore(path: fixture.statePath, rules: .appStore).connection.query(
      "UPDATE outbox SET state = 'bogus', deadline = deadline + 1000000 WHERE id = 2")
    let list = try await fixture.queue(["list", "--limit", "2"])
    #expect(list.status == 0)
    #expect(list.standardError.contains("1 entry in the outbox could not be read"))
    #expect(list.standardError.contains("showing 1 of 3"), "\(list.standardError)")
  }

  @Test func listHeadsTheFailedTriesColumnAsSuch() async throws {
    let run = try await QueueFixture().queue(["list"])
    let header = run.standardOutput.split(separator: "\n").first.map(String.init) ?? ""
    #expect(header.split(separator: "\t").contains("FAILED TRIES"), "\(header)")
  }

  @Test func showSaysWhichDecisionAnEntryCameFromAndTheFactsItRead() async throws {
    let fixture = try QueueFixture()
    let text = try await fixture.queue(["show", "1"]).standardOutput
    let decided = ISO8601DateFormatter().string(from: fixture.received)
    #expect(
      text.contains("\ndecided at \(decided): hold by rule 'r' of test (sha256 aaaaaaaaaaaa)\n"),
      "\(text)")
    #expect(text.contains("\nfacts: none read\n"), "\(text)")
    let json = try await fixture.queue(["show", "1", "--format", "json"]).standardOutput
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
    let decision = try #require(object["decision"] as? [String: Any], "\(json)")
    #expect(decision["rule"] as? String == "r")
    #expect(decision["action"] as? String == "hold")
    #expect(decision["facts"] as? [Any] != nil, "\(json)")
  }

  /// A duration stored in seconds, as a query gives an account's age, gets its size in days.
  @Test func aDurationInSecondsIsShownWithItsSizeInDays() async throws {
    let fixture = try QueueFixture(
      facts: #"[{"name":"customer.account_age","value":"21296800 seconds","source":"app-db"}]"#)
    let run = try await fixture.queue(["show", "1"])
    #expect(run.status == 0, "\(run.standardError)")
    #expect(
      run.standardOutput.contains(
        "  customer.account_age = 21296800 seconds (about 246.5 days) (app-db)"),
      "\(run.standardOutput)")
  }

  /// A fact's value is anyone's text: control and invisible characters are shown escaped, so
  /// they cannot colour the terminal or reorder the line.
  @Test func aFactValueIsShownTerminalSafe() async throws {
    let fixture = try QueueFixture(
      facts:
        #"[{"name":"product.id","value":"\"x\u202Eevil\u001B[31mRED\"","source":"src\nforged line"}]"#
    )
    let run = try await fixture.queue(["show", "1"])
    #expect(run.status == 0, "\(run.standardError)")
    #expect(run.standardOutput.contains(#"x\u{202E}evil\u{1B}[31mRED"#), "\(run.standardOutput)")
    // A line break in stored text does not start a line that reads as the report's.
    #expect(run.standardOutput.contains(#"(src\u{A}forged line)"#), "\(run.standardOutput)")
    #expect(!run.standardOutput.split(separator: "\n").contains { $0.hasPrefix("forged") })
    #expect(!run.standardOutput.unicodeScalars.contains { $0 == "\u{1B}" || $0 == "\u{202E}" })
  }
}
