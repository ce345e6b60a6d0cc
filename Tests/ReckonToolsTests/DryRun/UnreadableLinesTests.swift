import Foundation
import ReckonAppStore
import ReckonEngine
import Testing

@testable import ReckonTools

/// `--skip-bad-lines`: lines that cannot be read stop a dry-run, naming file:line, unless asked
/// to leave them out; then both paths count them, keep the first by line number and decide the
/// rest as if they were not there.
struct UnreadableLinesTests {
  enum Path: String, CaseIterable, Sendable { case bulk, sequential }

  /// The fixture's requests with a line that is not JSON after each line numbered in `after`
  /// (counting the inserted ones, so the bad lines' own numbers are `after[i] + i + 1`).
  static func requests(badAfter after: [Int], bad: String = "{not json") throws -> String {
    let fixture = try DryRunFixture.shared()
    var lines = try String(contentsOfFile: fixture.files.requests, encoding: .utf8)
      .split(separator: "\n").map(String.init)
    for (offset, position) in after.enumerated() { lines.insert(bad, at: position + offset) }
    let path = fixture.folder + "/bad-\(UUID().uuidString).jsonl"
    try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: path))
    return path
  }

  static func run(_ path: Path, _ file: String, skipBadLines: Bool) async throws -> DryRunResult {
    let fixture = try DryRunFixture.shared()
    let policy = try fixture.policy("targeted")
    let lines = try RequestLines(path: file)
    switch path {
    case .bulk:
      var bulk = BulkDryRun(
        policy: policy, against: nil, schema: fixture.setup.schema, layers: try fixture.layers(),
        threads: 2)
      bulk.skipBadLines = skipBadLines
      return try await bulk.run(lines)
    case .sequential:
      let read = try DryRunSetup.pastRequests(lines, verifier: nil, skipBadLines: skipBadLines)
      return await SequentialDryRun(
        policy: policy, against: nil, schema: fixture.setup.schema,
        facts: .current(fixture.setup.gatherer())
      ).run(read.requests, ignored: read.ignored, unreadable: read.unreadable)
    }
  }

  @Test(arguments: Path.allCases)
  func aBadLineStopsTheRunNamingFileAndLineByDefault(_ path: Path) async throws {
    let file = try Self.requests(badAfter: [5])
    await #expect {
      _ = try await Self.run(path, file, skipBadLines: false)
    } throws: { error in
      guard let error = error as? DryRunError, case .badLine(_, let line, let reason) = error
      else { return false }
      return line == 6 && reason.hasPrefix("not valid JSON")
    }
  }

  /// Enough lines for the bulk path to split them over two threads, with more bad lines than
  /// are kept: each shard counts its own and the first 20 by line number are kept.
  @Test(arguments: Path.allCases)
  func skippedBadLinesAreCountedAndTheRestDecidedAsWithoutThem(_ path: Path) async throws {
    let after = (0..<25).map { $0 * 113 + 7 }
    let file = try Self.requests(badAfter: after)
    let fixture = try DryRunFixture.shared()
    let clean = try await Self.run(path, fixture.files.requests, skipBadLines: false)
    let skipped = try await Self.run(path, file, skipBadLines: true)
    #expect(skipped.unreadable.count == 25)
    #expect(skipped.total == clean.total)
    #expect(skipped.rows.count == clean.rows.count)
    #expect(zip(skipped.rows, clean.rows).allSatisfy { $0.verdict == $1.verdict })
    let expected = after.prefix(UnreadableLines.kept).enumerated().map { offset, position in
      "\(file):\(position + offset + 1): not valid JSON"
    }
    #expect(skipped.unreadable.first.count == UnreadableLines.kept)
    #expect(
      zip(skipped.unreadable.first, expected).allSatisfy { $0.description.hasPrefix($1) },
      "\(skipped.unreadable.first.map(\.description))")
  }

  @Test(arguments: Path.allCases)
  func aSignedLineWithoutTrustedRootsStopsTheRunEvenWhenSkipping(_ path: Path) async throws {
    let file = try Self.requests(badAfter: [3], bad: #"{"signedPayload":"a.b.c"}"#)
    await #expect(throws: DryRunError.signedWithoutTrust(path: file, line: 4)) {
      _ = try await Self.run(path, file, skipBadLines: true)
    }
  }

  @Test func aSignedLineThatDoesNotVerifyIsSkippedLikeABadLine() async throws {
    let fixture = try DryRunFixture.shared()
    let file = try Self.requests(badAfter: [3], bad: #"{"signedPayload":"a.b.c"}"#)
    let verifier = try DryRunSetup.verifier(fixture.configuration)
    var bulk = BulkDryRun(
      policy: try fixture.policy("targeted"), against: nil, schema: fixture.setup.schema,
      layers: try fixture.layers(), verifier: verifier, threads: 2)
    await #expect {
      _ = try await bulk.run(RequestLines(path: file))
    } throws: { error in
      guard case .unverified(_, 4, _)? = error as? DryRunError else { return false }
      return true
    }
    bulk.skipBadLines = true
    let result = try await bulk.run(RequestLines(path: file))
    #expect(result.unreadable.count == 1)
    #expect(
      result.unreadable.first.first?.description.hasPrefix(
        "\(file):4: the signed notification does not verify") == true)
    let read = try DryRunSetup.pastRequests(
      RequestLines(path: file), verifier: verifier, skipBadLines: true)
    #expect(read.unreadable == result.unreadable)
  }

  @Test func summariesShowTheUnreadableLinesTheirFirstProblemsAndLeaveThemOutOfTheTotal()
    async throws
  {
    let file = try Self.requests(badAfter: [5, 8, 9, 20])
    let result = try await Self.run(.bulk, file, skipBadLines: true)
    let summary = DryRunSummary(result)
    let text = DryRunText.render(result, summary)
    #expect(text.contains("over 3,000 requests"))
    let line = try #require(
      text.split(separator: "\n").first { $0.hasPrefix("unreadable lines left out: 4 (") })
    #expect(line.contains("\(file):6: not valid JSON"))
    #expect(line.contains("\(file):10: not valid JSON"))
    #expect(line.hasSuffix("; …)"), "only the first three are shown: \(line)")
    #expect(!line.contains("\(file):24:"))

    var json = ""
    DryRunRows.json(result, summary) { json += $0 }
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
    #expect(object["unreadable"] as? Int == 4)
    #expect((object["unreadableLines"] as? [String])?.count == 4)
    #expect((object["unreadableLines"] as? [String])?.last?.hasPrefix("\(file):24:") == true)

    let html = HTMLReport.dryRun(result, summary)
    #expect(html.contains(#"<b id="unreadable">4</b>"#))
    #expect(DryRunText.unreadableNote(result) == String(line))
  }

  @Test func aRunOfOnlyBadLinesSaysSoWhenNothingWasDecided() async throws {
    let fixture = try DryRunFixture.shared()
    let file = fixture.folder + "/all-bad-\(UUID().uuidString).jsonl"
    try Data("{not json\n[1]\n".utf8).write(to: URL(fileURLWithPath: file))
    let result = try await Self.run(.bulk, file, skipBadLines: true)
    #expect(result.unreadable.count == 2)
    #expect(
      DryRunText.nothingDecided(result, source: "f")?.hasSuffix("only 2 unreadable lines") == true)
  }

  /// A file saved with a byte-order mark (as some editors do) reads as without it.
  @Test(arguments: Path.allCases)
  func aByteOrderMarkBeforeTheFirstLineIsSkipped(_ path: Path) async throws {
    let fixture = try DryRunFixture.shared()
    let marked = fixture.folder + "/bom-\(UUID().uuidString).jsonl"
    try Data(
      [0xEF, 0xBB, 0xBF] + Array(try Data(contentsOf: URL(fileURLWithPath: fixture.files.requests)))
    )
    .write(to: URL(fileURLWithPath: marked))
    let clean = try await Self.run(path, fixture.files.requests, skipBadLines: false)
    let read = try await Self.run(path, marked, skipBadLines: false)
    #expect(read.total == clean.total)
    #expect(read.rows.count == clean.rows.count)
  }

  /// A signed notification that verifies but is another app's (an archive several apps share)
  /// is left out and counted as serve refuses it, on both paths; it stopped the run as a line
  /// that does not verify.
  @Test(arguments: Path.allCases)
  func aSignedLineForAnotherAppIsCountedNotAnError(_ path: Path) async throws {
    let ca = try LocalCertificateAuthority()
    let now = Int64(Date().timeIntervalSince1970 * 1000)
    let transaction = try ca.sign(
      payload: Data(
        #"{"transactionId":"9","bundleId":"com.other.app","environment":"Production","type":"Consumable","signedDate":\#(now)}"#
          .utf8))
    let notification = try ca.sign(
      payload: Data(
        #"{"notificationType":"CONSUMPTION_REQUEST","notificationUUID":"\#(UUID())","signedDate":\#(now),"data":{"bundleId":"com.other.app","appAppleId":1,"environment":"Production","consumptionRequestReason":"OTHER","signedTransactionInfo":"\#(transaction)"}}"#
          .utf8))
    let file = try Self.requests(badAfter: [3], bad: #"{"signedPayload":"\#(notification)"}"#)
    let verifier = NotificationVerifier(
      apps: [AcceptedApp(bundleId: "com.example.coins", appAppleId: nil, environment: .production)],
      roots: [ca.root])
    let fixture = try DryRunFixture.shared()
    let policy = try fixture.policy("targeted")
    let lines = try RequestLines(path: file)
    let otherApps: Int
    switch path {
    case .bulk:
      otherApps = try await BulkDryRun(
        policy: policy, against: nil, schema: fixture.setup.schema, layers: try fixture.layers(),
        verifier: verifier, threads: 2
      ).run(lines).otherApps
    case .sequential:
      otherApps = try DryRunSetup.pastRequests(lines, verifier: verifier).otherApps
    }
    #expect(otherApps == 1)
  }
}
