import Foundation
import ReckonAppStore
import ReckonState
import Testing

@testable import ReckonEngine
@testable import ReckonTools

/// A requests file with Apple's retries (the same notificationUUID) and repeats (the same refund
/// request under a new UUID while the first is open) is decided as `reckon serve` would: once.
struct NotificationCopiesTests {
  /// `line` with its notification's UUID (if given) and signedDate moved by `seconds`.
  static func copy(_ line: Substring, uuid: String?, after seconds: Double) throws -> String {
    var text = String(line)
    if let uuid {
      let range = try #require(
        text.range(of: #""notificationUUID":"[^"]*""#, options: .regularExpression))
      text.replaceSubrange(range, with: #""notificationUUID":"\#(uuid)""#)
    }
    let date = try #require(text.range(of: #""signedDate":[0-9]+"#, options: .regularExpression))
    let milliseconds = try #require(Int64(text[date].dropFirst(#""signedDate":"#.count)))
    text.replaceSubrange(date, with: #""signedDate":\#(milliseconds + Int64(seconds * 1_000))"#)
    return text
  }

  /// The targeted policy over `path`, on the bulk path or one request at a time.
  static func dryRun(_ path: String, bulk: Bool, _ fixture: DryRunFixture) async throws
    -> DryRunResult
  {
    let policy = try fixture.policy("targeted")
    if bulk {
      return try await BulkDryRun(
        policy: policy, against: nil, schema: fixture.setup.schema, layers: fixture.layers(),
        threads: 2
      ).run(RequestLines(path: path))
    }
    let read = try DryRunSetup.pastRequests(RequestLines(path: path), verifier: nil)
    return await SequentialDryRun(
      policy: policy, against: nil, schema: fixture.setup.schema,
      facts: .current(fixture.setup.gatherer())
    ).run(read.requests, ignored: read.ignored, verdicts: read.verdicts)
  }

  @Test(arguments: [false, true])
  func retriesAndRepeatsOfAnOpenRequestAreLeftOutAndALaterRequestIsDecided(bulk: Bool)
    async throws
  {
    let fixture = try DryRunFixture.shared()
    let lines = try String(contentsOfFile: fixture.files.requests, encoding: .utf8)
      .split(separator: "\n").prefix(50)
    let first = lines[lines.startIndex]
    let copies = [
      String(first),  // Apple's retry: the same notification
      try Self.copy(first, uuid: "copy-1", after: 60),  // the same request again, still open
      try Self.copy(first, uuid: "copy-2", after: 11 * 3_600),  // still open
      try Self.copy(first, uuid: "later", after: 13 * 3_600),  // a new request
      try Self.copy(first, uuid: "later-copy", after: 14 * 3_600),  // repeats the new one
    ]
    let path = fixture.folder + "/copies-\(UUID().uuidString).jsonl"
    try Data(((lines.map(String.init) + copies).joined(separator: "\n") + "\n").utf8).write(
      to: URL(fileURLWithPath: path))
    let result = try await Self.dryRun(path, bulk: bulk, fixture)
    #expect(result.duplicates == 1)
    #expect(result.repeats == 3)
    #expect(result.rows.count == 51)
    #expect(result.total == 51)
    let uuids = result.rows.map(\.notificationUUID)
    #expect(uuids.contains("later"))
    #expect(!uuids.contains("copy-1") && !uuids.contains("later-copy"))
    #expect(Set(uuids).count == 51)
    // Counted without the copies, though the bulk path counted every row as it made it.
    #expect(DryRunSummary(result).decided == 51)
    let text = DryRunText.render(result, DryRunSummary(result))
    #expect(text.contains("copies of a notification already read"))
    #expect(text.contains("left out: 1\n"))
    #expect(
      text.contains(
        "repeats of a request still open (serve answers them by its decision), left out: 3"))
  }

  /// Apple declined the first request an hour in and the customer asked again: as serve records
  /// it, the second request is a new one, decided, and only its own copy is a repeat. A REVOKE
  /// is no verdict on a refund request: after it, the second request still repeats the first.
  @Test(
    arguments: [("REFUND_DECLINED", true), ("REFUND", true), ("REVOKE", false)], [false, true])
  func aRequestAfterApplesVerdictOnTheOpenOneIsDecided(
    verdict: (type: String, closes: Bool), bulk: Bool
  ) async throws {
    let fixture = try DryRunFixture.shared()
    let lines = try String(contentsOfFile: fixture.files.requests, encoding: .utf8)
      .split(separator: "\n").prefix(50)
    let first = lines[lines.startIndex]
    let outcome = try Self.copy(first, uuid: "verdict", after: 3_600).replacingOccurrences(
      of: #""notificationType":"CONSUMPTION_REQUEST""#,
      with: #""notificationType":"\#(verdict.type)""#)
    let later = [
      outcome,
      try Self.copy(first, uuid: "asked-again", after: 2 * 3_600),
      try Self.copy(first, uuid: "asked-again-copy", after: 3 * 3_600),
    ]
    let path = fixture.folder + "/verdict-\(UUID().uuidString).jsonl"
    try Data(((lines.map(String.init) + later).joined(separator: "\n") + "\n").utf8).write(
      to: URL(fileURLWithPath: path))
    let result = try await Self.dryRun(path, bulk: bulk, fixture)
    #expect(result.ignored == 1)
    let uuids = result.rows.map(\.notificationUUID)
    #expect(!uuids.contains("asked-again-copy"))
    if verdict.closes {
      #expect(result.repeats == 1)
      #expect(uuids.contains("asked-again"))
      #expect(result.rows.count == 51)
    } else {
      #expect(result.repeats == 2)
      #expect(!uuids.contains("asked-again"))
      #expect(result.rows.count == 50)
    }
  }

  /// A verdict closes the open request only within its own time and environment; one of unknown
  /// app (imported without it) counts for every environment.
  @Test(arguments: [
    (AppStoreEnvironment?.some(.production), 3_600.0, true),
    (.some(.sandbox), 3_600, false),
    (nil, 3_600, true),
    (.some(.production), -60, false),
    (.some(.production), 3 * 3_600, false),
  ])
  func aVerdictClosesOnlyItsOwnEnvironmentsRequestInItsTime(
    environment: AppStoreEnvironment?, after: TimeInterval, closes: Bool
  ) {
    let start = Date(timeIntervalSince1970: 1_790_000_000)
    var rows = [
      NotificationCopiesWindowTests.row(uuid: "first", signed: start, received: start),
      NotificationCopiesWindowTests.row(
        uuid: "again", signed: start.addingTimeInterval(7_200),
        received: start.addingTimeInterval(7_200)),
    ]
    var verdicts = StoreVerdicts()
    verdicts.add(
      transactionId: rows[0].transactionId, environment: environment?.rawValue,
      at: start.addingTimeInterval(after))
    var copies = NotificationCopies(verdicts: verdicts)
    copies.remove(from: &rows)
    #expect(copies.repeats == (closes ? 0 : 1))
    #expect(rows.map(\DryRunRow.notificationUUID) == (closes ? ["first", "again"] : ["first"]))
  }

  /// The bulk path puts one transaction's lines side by side; a copy whose original falls in
  /// the other thread's share is still found.
  @Test func aCopyAcrossTheThreadsBoundaryIsLeftOut() async throws {
    let fixture = try DryRunFixture.shared()
    let lines = try String(contentsOfFile: fixture.files.requests, encoding: .utf8)
      .split(separator: "\n")
    #expect(lines.count == 3_000)
    // Sorted by transaction, the copy of line 1,499 is the first line of the second half.
    let path = fixture.folder + "/straddle-\(UUID().uuidString).jsonl"
    try Data(((lines + [lines[1_499]]).joined(separator: "\n") + "\n").utf8).write(
      to: URL(fileURLWithPath: path))
    let result = try await BulkDryRun(
      policy: try fixture.policy("targeted"), against: nil, schema: fixture.setup.schema,
      layers: fixture.layers(), threads: 2
    ).run(RequestLines(path: path))
    #expect(result.duplicates == 1)
    #expect(result.rows.count == 3_000)
  }

  /// How the copies test below rewrites a line.
  enum Change: Sendable {
    case spacedKey
    case withoutUUID
    case environment(String)
  }

  /// `line` changed as `changes` say.
  static func changed(_ line: String, _ changes: [Change]) throws -> String {
    var text = line
    for change in changes {
      switch change {
      case .spacedKey:
        // No quick key: such lines sort last, in file order.
        text = text.replacingOccurrences(of: #""transactionId":""#, with: #""transactionId": ""#)
      case .withoutUUID:
        let range = try #require(
          text.range(of: #""notificationUUID":"[^"]*","#, options: .regularExpression))
        text.removeSubrange(range)
      case .environment(let name):
        let range = try #require(text.range(of: #""environment":"Production""#))
        text.replaceSubrange(range, with: #""environment":"\#(name)""#)
      }
    }
    return text
  }

  /// Copies found whatever the lines look like: without a quick key and apart from each other,
  /// without a UUID (a request of its own when its window has closed), and across environments
  /// (serve keeps one open request per environment).
  @Test(arguments: [false, true])
  func copiesAreFoundInLinesWithoutKeysUUIDsOrOfAnotherEnvironment(bulk: Bool) async throws {
    let fixture = try DryRunFixture.shared()
    let lines = try String(contentsOfFile: fixture.files.requests, encoding: .utf8)
      .split(separator: "\n").prefix(10).map(String.init)
    let extra = [
      // Keyless and not side by side: the same request again an hour later.
      try Self.changed(lines[1], [.spacedKey]),
      try Self.changed(lines[2], [.spacedKey]),
      try Self.changed(
        try Self.copy(Substring(lines[1]), uuid: "keyless-again", after: 3_600), [.spacedKey]),
      // No UUIDs: 13 hours apart, two requests; an hour after the second, a repeat.
      try Self.changed(try Self.copy(Substring(lines[3]), uuid: nil, after: 0), [.withoutUUID]),
      try Self.changed(
        try Self.copy(Substring(lines[3]), uuid: nil, after: 13 * 3_600), [.withoutUUID]),
      try Self.changed(
        try Self.copy(Substring(lines[3]), uuid: nil, after: 14 * 3_600), [.withoutUUID]),
      // Production, then Sandbox, then Production again within the window: a repeat.
      try Self.copy(Substring(lines[4]), uuid: "sandbox", after: 60).replacingOccurrences(
        of: #""environment":"Production""#, with: #""environment":"Sandbox""#),
      try Self.copy(Substring(lines[4]), uuid: "production-again", after: 120),
    ]
    // The original lines 1 to 3 are left out, so the copies above are what is decided.
    let kept = lines.enumerated().filter { !(1...3).contains($0.offset) }.map(\.element)
    let path = fixture.folder + "/mixed-\(UUID().uuidString).jsonl"
    try Data(((kept + extra).joined(separator: "\n") + "\n").utf8).write(
      to: URL(fileURLWithPath: path))
    let result = try await Self.dryRun(path, bulk: bulk, fixture)
    #expect(result.duplicates == 0)
    #expect(result.repeats == 3)
    let uuids = result.rows.map(\.notificationUUID)
    #expect(!uuids.contains("keyless-again") && !uuids.contains("production-again"))
    #expect(uuids.contains("sandbox"))
    #expect(uuids.filter(\.isEmpty).count == 2)
    #expect(result.rows.count == 7 + 8 - 3)
  }
}

/// A recorded request's window counts from Apple's first send, as serve counts it: a request
/// received after that window closed is a new one even if its receipt was later.
struct NotificationCopiesWindowTests {
  static func row(uuid: String, signed: Date, received: Date) -> DryRunRow {
    let base = StoredRecords.request()
    var notification = base.notification
    notification.notificationUUID = uuid
    notification.signedDate = signed
    return DryRunRow(
      request: RefundRequest(
        notification: notification, transaction: base.transaction, receivedAt: received),
      verdict: nil, against: nil)
  }

  /// As serve: a copy Apple signed before its verdict, though received after it, repeats the
  /// open request.
  @Test func aCopySignedBeforeTheVerdictIsARepeat() {
    let start = Date(timeIntervalSince1970: 1_790_000_000)
    var rows = [
      Self.row(uuid: "first", signed: start, received: start),
      Self.row(
        uuid: "late", signed: start.addingTimeInterval(600),
        received: start.addingTimeInterval(3_600)),
    ]
    var verdicts = StoreVerdicts()
    verdicts.add(
      transactionId: rows[0].transactionId, environment: "Production",
      at: start.addingTimeInterval(2_400))
    var copies = NotificationCopies(verdicts: verdicts)
    copies.remove(from: &rows)
    #expect(copies.repeats == 1)
    #expect(rows.map(\.notificationUUID) == ["first"])
  }

  @Test func aRequestAfterTheFirstSendsWindowIsNoRepeat() {
    let start = Date(timeIntervalSince1970: 1_790_000_000)
    var rows = [
      // Received three hours after Apple first sent it: nine hours left.
      Self.row(uuid: "late", signed: start, received: start.addingTimeInterval(3 * 3_600)),
      Self.row(
        uuid: "next", signed: start.addingTimeInterval(13 * 3_600),
        received: start.addingTimeInterval(13 * 3_600)),
    ]
    #expect(rows[0].deadline == start.addingTimeInterval(12 * 3_600))
    var copies = NotificationCopies()
    copies.remove(from: &rows)
    #expect(copies.repeats == 0)
    #expect(rows.map(\.notificationUUID) == ["late", "next"])
  }
}
