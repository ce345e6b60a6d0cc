import Foundation
import ReckonEngine
import ReckonTestSupport
import Testing

@testable import ReckonStateSQLite

/// `reckon queue list --state` and `reckon queue show` say what the entries are.
struct QueueListShowTests {
  @Test(
    "a queue command with words it does not take is refused and changes nothing",
    arguments: [
      (["approve", "1", "2"], "unexpected '2': queue approve takes one entry ID"),
      (["drop", "1", "now"], "unexpected 'now': queue drop takes one entry ID"),
      (["list", "held"], "unexpected 'held': queue list takes no words"),
      (
        ["approve", "one"], "'one' is not an entry ID (a whole number from 1, as queue list shows)"
      ),
      (["show", "-1"], "'-1' is not an entry ID (a whole number from 1, as queue list shows)"),
      (["drop", "0"], "'0' is not an entry ID (a whole number from 1, as queue list shows)"),
      (["retry"], "retry needs an entry ID"),
      (["aprove", "1"], "unknown queue command 'aprove' (did you mean 'approve'?)"),
      (["show", "1", "--status", "held"], "--status is for queue list only"),
      (["approve", "1", "--limit", "5"], "--limit is for queue list only"),
    ])
  func extraWordsAreRefused(arguments: [String], message: String) async throws {
    let fixture = try QueueFixture()
    let run = try await fixture.queue(arguments)
    #expect(run.status == 2)
    #expect(run.standardError.contains(message), "\(run.standardError)")
    let show = try await fixture.queue(["show", "1"]).standardOutput
    #expect(show.hasPrefix("entry 1: held since"), "\(show)")
  }

  @Test func aWrongEntryIDIsNamedBeforeAnyConfigurationIsLookedFor() async throws {
    let run = try await ReckonBinary.run(
      ["queue", "show", "abc", "--config", "/nonexistent/reckon.json"])
    #expect(run.status == 2)
    #expect(
      run.standardError.contains(
        "'abc' is not an entry ID (a whole number from 1, as queue list shows)"),
      "\(run.standardError)")
  }

  /// An entry still waiting past its deadline is marked, and a line on stderr asks whether a
  /// sender runs: with none (serve without an appStore key and no reckon send) nothing else
  /// expires it or says so.
  @Test func anEntryPastItsDeadlineAndNotSentIsMarkedOverdue() async throws {
    let fixture = try QueueFixture()
    let store = try SQLiteStateStore(path: fixture.statePath, rules: .appStore)
    _ = try QueueFixture.enqueue(
      in: store, at: Date().addingTimeInterval(-13 * 3_600), transaction: "2003", hold: false)
    let run = try await fixture.queue(["list"])
    #expect(run.status == 0)
    let rows = run.standardOutput.split(separator: "\n").filter { $0.contains("\t2003\t") }
    #expect(rows.first?.hasPrefix("3\tpending, overdue\t") == true, "\(run.standardOutput)")
    #expect(run.standardOutput.contains("\n2\tpending\t2002\t"), "\(run.standardOutput)")
    #expect(
      run.standardError.contains(
        "1 entry is past the deadline and not sent: is a sender running? (reckon serve with an appStore key, or reckon send)"
      ), "\(run.standardError)")
    let json = try await fixture.queue(["list", "--format", "json"]).standardOutput
    #expect(json.contains(#""overdue" : true"#))
    #expect(json.contains(#""overdue" : false"#))
  }

  @Test func listRefusesAnUnknownStateNamingTheValidOnes() async throws {
    let fixture = try QueueFixture()
    let run = try await fixture.queue(["list", "--status", "helld"])
    #expect(run.status == 2)
    #expect(
      run.standardError.contains(
        "unknown state 'helld' (did you mean 'held'?); the states are held, pending, sending, sent, failed, expired, dropped"
      ), "\(run.standardError)")
    #expect(run.standardOutput.isEmpty)
  }

  /// `--status` picks entries and `--state` names the database, so a path given to `--status`
  /// is explained rather than "unknown state".
  @Test(arguments: ["reckon-state.sqlite", "./state/reckon-state.sqlite", "state.db"])
  func listGivenADatabaseAsItsStatusSaysToGiveItAsState(_ path: String) async throws {
    let fixture = try QueueFixture()
    let run = try await fixture.queue(["list", "--status", path])
    #expect(run.status == 2)
    #expect(
      run.standardError.contains(
        "'\(path)' looks like a state database, but --status picks entries by their status (held, pending, sending, sent, failed, expired, dropped); give the database as --state \(path)"
      ), "\(run.standardError)")
  }

  /// A state with no entries says so, not that the whole outbox is empty.
  @Test func listOfAStateWithNoEntriesSaysHowManyAreInOthers() async throws {
    let fixture = try QueueFixture()
    let run = try await fixture.queue(["list", "--status", "sent"])
    #expect(run.status == 0, "\(run.standardError)")
    #expect(
      run.standardOutput.hasPrefix("no sent entries (2 in other states)"), "\(run.standardOutput)")
  }

  /// The path is explained before the configuration is read: there may be none to read.
  @Test func aDatabaseGivenAsStateIsExplainedWithoutAConfiguration() async throws {
    let folder = TestScratch.folder.appendingPathComponent("no-config-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let run = try await ReckonBinary.run(
      ["queue", "list", "--status", "reckon-state.sqlite"], in: folder)
    #expect(run.status == 2)
    #expect(run.standardError.contains("looks like a state database"), "\(run.standardError)")
  }

  @Test func eachOperatorCommandIsInTheEntrysHistoryWithWhoGaveIt() async throws {
    let fixture = try QueueFixture()
    let approve = try await fixture.queue(["approve", "1"])
    #expect(approve.status == 0, "\(approve.standardError)")
    let set = try await fixture.queue(["set", "1", "refundPreference=GRANT_FULL"])
    #expect(set.status == 0, "\(set.standardError)")
    let user = ProcessInfo.processInfo.userName
    let show = try await fixture.queue(["show", "1"]).standardOutput
    #expect(show.contains("operator approved with reckon queue by \(user)"), "\(show)")
    #expect(
      show.contains(
        "operator set refundPreference=GRANT_FULL with reckon queue by \(user)"),
      "\(show)")
    let refused = try await fixture.queue(["approve", "1"])
    #expect(refused.status == 1)
    let again = try await fixture.queue(["show", "1"]).standardOutput
    #expect(again.components(separatedBy: " operator ").count == 3, "\(again)")
  }

  @Test func listFiltersByAKnownState() async throws {
    let fixture = try QueueFixture()
    let run = try await fixture.queue(["list", "--status", "held"])
    #expect(run.status == 0, "\(run.standardError)")
    #expect(run.standardOutput.contains("\t2001\t"))
    #expect(!run.standardOutput.contains("\t2002\t"))
  }

  @Test func showSaysWhenAnEntryWasHeldAndWhenItWillBeReleased() async throws {
    let fixture = try QueueFixture()
    let formatter = ISO8601DateFormatter()
    let release = fixture.received.addingTimeInterval(11 * 3_600)
    let text = try await fixture.queue(["show", "1"]).standardOutput
    #expect(
      text.hasPrefix(
        "entry 1: held since \(formatter.string(from: fixture.received)), to be sent as decided at \(formatter.string(from: release))\n"
      ), "\(text)")
    let json = try await fixture.queue(["show", "1", "--format", "json"]).standardOutput
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
    #expect(object["stateAt"] as? String == formatter.string(from: fixture.received))
    #expect(object["releaseAt"] as? String == formatter.string(from: release))
  }
}

extension QueueListShowTests {
  /// queue list's filter is `--status`, and `--state` names the database: a status given to
  /// `--state`, the filter's old spelling, says so rather than look for a file of that name.
  @Test func theOldStateFilterSaysItIsStatusNow() async throws {
    let run = try await ReckonBinary.run(["queue", "list", "--state", "held"])
    #expect(run.status == 2)
    #expect(run.standardError.contains("queue list picks entries with --status held now"))
  }

  /// `--state FILE`, as report and prune take it, names the database without a configuration:
  /// to look at the outbox and to change an entry.
  @Test func aStateDatabaseGivenAsStateIsListedAndChanged() async throws {
    let fixture = try QueueFixture()
    let list = try await ReckonBinary.run(["queue", "list", "--state", fixture.statePath])
    #expect(list.status == 0, "\(list.standardError)")
    #expect(list.standardOutput.contains("held"), "\(list.standardOutput)")
    let approve = try await ReckonBinary.run([
      "queue", "approve", "1", "--state", fixture.statePath,
    ])
    #expect(approve.status == 0, "\(approve.standardError)")
    #expect(approve.standardOutput == "entry 1: pending\n", "\(approve.standardOutput)")
    let show = try await fixture.queue(["show", "1"]).standardOutput
    #expect(show.hasPrefix("entry 1: pending"), "\(show)")
  }

  /// A Google Play answer cannot be changed: `set` says so whatever fields it is given, in
  /// Google's words or Apple's, and `retry` of a held one points to approve or drop, not set.
  @Test(arguments: ["refundPreference=APPROVE", "refundPreference=DECLINE", "nonsense=1"])
  func aGooglePlayAnswerIsRefusedASetAndARetryNamesWhatItCanDo(_ field: String) async throws {
    let fixture = try QueueFixture()
    let store = try SQLiteStateStore(path: fixture.statePath, rules: .stores)
    let id = try OutboxFixture.enqueueGoogleAnswer(in: store, at: Date(), hold: true)
    let set = try await fixture.queue(["set", String(id), field])
    #expect(set.status == 1, "\(set.standardError)")
    #expect(
      set.standardError.contains(
        "outbox entry \(id): a Google Play answer cannot be changed; approve it as decided, or drop it"
      ),
      "\(set.standardError)")
    let retry = try await fixture.queue(["retry", String(id)])
    #expect(retry.status == 1)
    #expect(
      retry.standardError.contains("or drop it ('reckon queue drop \(id)')"),
      "\(retry.standardError)")
    #expect(!retry.standardError.contains("queue set"), "\(retry.standardError)")
  }

  /// Both would name the state: one would be passed over without a word.
  @Test func stateAndConfigTogetherAreRefused() async throws {
    let fixture = try QueueFixture()
    let run = try await fixture.queue(["list", "--state", fixture.statePath])
    #expect(run.status == 2)
    #expect(
      run.standardError.contains("give --state or --config, not both"), "\(run.standardError)")
  }
}
