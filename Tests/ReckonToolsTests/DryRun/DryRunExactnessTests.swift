import Foundation
import ReckonEngine
import ReckonFacts
import ReckonPolicy
import Testing

@testable import ReckonTools

/// The bulk dry-run gives exactly the decisions of gathering facts and deciding each request on
/// its own, at the request's own time.
struct DryRunExactnessTests {
  @Test func bulkPathDecidesLikeEachRequestOnItsOwn() async throws {
    let fixture = try DryRunFixture.shared()
    let policy = try fixture.policy("targeted")
    let against = try fixture.policy("prefer-refund")
    let bulk = try await BulkDryRun(
      policy: policy, against: against, schema: fixture.setup.schema, layers: fixture.layers(),
      threads: 2
    ).run(RequestLines(path: fixture.files.requests))
    let reference = await SequentialDryRun(
      policy: policy, against: against, schema: fixture.setup.schema,
      facts: .current(fixture.setup.gatherer())
    ).run(try fixture.pastRequests())
    #expect(bulk.rows.count == 3_000)
    #expect(bulk.rows.count == reference.rows.count)
    var mismatches = 0
    for (fast, slow) in zip(bulk.rows, reference.rows) {
      #expect(fast.notificationUUID == slow.notificationUUID)
      if fast.verdict != slow.verdict || fast.against != slow.against { mismatches += 1 }
    }
    #expect(mismatches == 0)
    #expect(bulk.rows.allSatisfy { $0.problem == nil })
    // The bulk path counts its rows as it makes them; the counts are those of the rows.
    #expect(DryRunSummary(bulk) == DryRunSummary(reference))
    #expect(DryRunSummary(bulk).decided == 3_000)
  }

  /// The example queries find the customer through the purchase, as the bulk query does, so
  /// a notification without an appAccountToken gets the same facts either way.
  @Test func requestsWithoutAnAppAccountTokenGetTheSameFactsInBulkAndOneByOne() async throws {
    let fixture = try DryRunFixture.shared()
    let policy = try fixture.policy("targeted")
    let lines = try String(contentsOfFile: fixture.files.requests, encoding: .utf8)
      .split(separator: "\n").map {
        $0.replacingOccurrences(
          of: #","appAccountToken":"[^"]*""#, with: "", options: .regularExpression)
      }
    #expect(!lines.contains { $0.contains("appAccountToken") })
    let path = fixture.folder + "/no-token-\(UUID().uuidString).jsonl"
    try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: path))
    let bulk = try await BulkDryRun(
      policy: policy, against: nil, schema: fixture.setup.schema, layers: fixture.layers(),
      threads: 2
    ).run(RequestLines(path: path))
    let reference = await SequentialDryRun(
      policy: policy, against: nil, schema: fixture.setup.schema,
      facts: .current(fixture.setup.gatherer())
    ).run(try DryRunSetup.pastRequests(RequestLines(path: path), verifier: nil).requests)
    #expect(bulk.rows.count == reference.rows.count)
    #expect(zip(bulk.rows, reference.rows).allSatisfy { $0.verdict == $1.verdict })
    // And the same as with the tokens: the customer is the purchase's account.
    let withTokens = try await BulkDryRun(
      policy: policy, against: nil, schema: fixture.setup.schema, layers: fixture.layers(),
      threads: 2
    ).run(RequestLines(path: fixture.files.requests))
    #expect(zip(bulk.rows, withTokens.rows).allSatisfy { $0.verdict == $1.verdict })
  }

  @Test func requestsOutOfTransactionOrderAreSortedAndGiveTheSameRows() async throws {
    let fixture = try DryRunFixture.shared()
    let policy = try fixture.policy("targeted")
    let lines = try String(contentsOfFile: fixture.files.requests, encoding: .utf8)
      .split(separator: "\n")
    var random = SystemRandomNumberGenerator()
    let shuffled = fixture.folder + "/shuffled.jsonl"
    try Data((lines.shuffled(using: &random).joined(separator: "\n") + "\n").utf8).write(
      to: URL(fileURLWithPath: shuffled))
    let run = BulkDryRun(
      policy: policy, against: nil, schema: fixture.setup.schema, layers: try fixture.layers(),
      threads: 2)
    let ordered = try await run.run(RequestLines(path: fixture.files.requests))
    let mixed = try await run.run(RequestLines(path: shuffled))
    let byUUID = Dictionary(
      uniqueKeysWithValues: ordered.rows.map { ($0.notificationUUID, $0.verdict) })
    #expect(mixed.rows.count == ordered.rows.count)
    #expect(mixed.rows.allSatisfy { byUUID[$0.notificationUUID] == $0.verdict })
  }

  /// Lines that give no row (other notifications), scattered through both threads' shares,
  /// leave the rows of the others whole and in the file's order.
  @Test func linesWithoutARowLeaveTheOthersInOrder() async throws {
    let fixture = try DryRunFixture.shared()
    let policy = try fixture.policy("targeted")
    let lines = try String(contentsOfFile: fixture.files.requests, encoding: .utf8)
      .split(separator: "\n").map(String.init)
    let renewals = Set(stride(from: 0, to: lines.count, by: 7)).union([1, lines.count - 1])
    let mixed = lines.enumerated().map { index, line in
      renewals.contains(index)
        ? line.replacingOccurrences(of: "CONSUMPTION_REQUEST", with: "DID_RENEW") : line
    }
    let path = fixture.folder + "/renewals-\(UUID().uuidString).jsonl"
    try Data((mixed.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: path))
    let run = BulkDryRun(
      policy: policy, against: nil, schema: fixture.setup.schema, layers: try fixture.layers(),
      threads: 2)
    let all = try await run.run(RequestLines(path: fixture.files.requests))
    let some = try await run.run(RequestLines(path: path))
    let kept = all.rows.enumerated().filter { !renewals.contains($0.offset) }.map(\.element)
    #expect(some.ignored == renewals.count)
    #expect(some.rows.map(\.notificationUUID) == kept.map(\.notificationUUID))
    #expect(zip(some.rows, kept).allSatisfy { $0.verdict == $1.verdict })
  }

  @Test func nowIsEachRequestsOwnReceiveTime() async throws {
    let fixture = try DryRunFixture.shared()
    let policy = try fixture.policy(
      source: """
        policy "late requests"
        version 1
        rule "asked within a week of buying"
          when now - purchase.date < 7 days
          then refund GRANT_FULL
        otherwise refund DECLINE
        """, named: "late")
    let result = try await BulkDryRun(
      policy: policy, against: nil, schema: fixture.setup.schema, layers: try fixture.layers()
    ).run(RequestLines(path: fixture.files.requests))
    let decider = Decider(policy: policy, schema: fixture.setup.schema)
    let gatherer = fixture.setup.gatherer()
    for past in try fixture.pastRequests().prefix(300) {
      let row = try #require(
        result.rows.first { $0.notificationUUID == past.request.notification.notificationUUID })
      #expect(row.receivedAt == past.request.notification.signedDate)
      guard case .ready(let facts) = await gatherer.gather(past.request, for: policy) else {
        Issue.record("facts not ready")
        return
      }
      #expect(row.verdict == DryRunVerdict(decider.decide(past.request, facts: facts)))
    }
    let outcomes = Set(result.rows.compactMap { $0.verdict?.body?.refundPreference })
    #expect(outcomes.count == 2)
  }

  @Test func bulkQueryThatDisagreesWithThePerRequestQueriesIsRefused() async throws {
    let fixture = try DryRunFixture.shared()
    let wrong = GeneratedDataWriter.bulkQuery.replacingOccurrences(
      of: "p.sample_offered AS", with: "1 - p.sample_offered AS")
    let layers = try fixture.layers().map { layer -> BulkFactLayer in
      guard case .scan(let name, let path, _, let source) = layer else { return layer }
      return .scan(name: name, path: path, sql: wrong, source: source)
    }
    let run = BulkDryRun(
      policy: try fixture.policy("targeted"), against: nil, schema: fixture.setup.schema,
      layers: layers)
    let error = await #expect(throws: DryRunError.self) {
      _ = try await run.run(RequestLines(path: fixture.files.requests))
    }
    #expect(error?.description.contains("product.sample_offered") == true)
    #expect(error?.description.contains("or remove bulkQuery") == true)
  }

  /// The per-request queries fail at run time (as `reckon serve`'s lookups then would): the
  /// dry-run still decides from the bulk query, but says its check could not run, and why.
  @Test func aBulkQueryThatCouldNotBeCheckedIsNamedWithTheReason() async throws {
    let fixture = try DryRunFixture.shared()
    let failing = try SQLiteFactSource(
      name: "app-db",
      settings: .init(
        path: fixture.folder + "/facts.sqlite",
        queries: [
          "purchase":
            "SELECT p.sample_offered AS \"product.sample_offered\" FROM purchases p WHERE p.transaction_id = :transaction_id AND abs(-9223372036854775807 - 1) > 0"
        ]), schema: fixture.setup.schema)
    let layers = try fixture.layers().map { layer -> BulkFactLayer in
      guard case .scan(let name, let path, let sql, _) = layer else { return layer }
      return .scan(name: name, path: path, sql: sql, source: failing)
    }
    let result = try await BulkDryRun(
      policy: try fixture.policy("targeted"), against: nil, schema: fixture.setup.schema,
      layers: layers
    ).run(RequestLines(path: fixture.files.requests))
    #expect(!result.rows.isEmpty)
    let reason = try #require(result.uncheckedBulkQueries["app-db"])
    #expect(reason.contains("integer overflow"), "\(reason)")
    let checked = try await fixture.bulkRun("targeted")
    #expect(checked.uncheckedBulkQueries.isEmpty)
  }

  @Test func bulkScanReadsOnlyTheFactsThePoliciesCanRead() async throws {
    let fixture = try DryRunFixture.shared()
    let run = BulkDryRun(
      policy: try fixture.policy("targeted"), against: nil, schema: fixture.setup.schema,
      layers: try fixture.layers())
    #expect(run.reading.contains("customer.refunds_last_90_days"))
    #expect(!run.reading.contains("customer.lifetime_spent"))
    let path = fixture.folder + "/facts.sqlite"
    let first = try #require(
      (0..<fixture.generator.count).map { fixture.generator.request($0).transactionId }
        .min { BulkKeyOrder.compare($0, $1) < 0 })
    let names = { (facts: [SQLiteBulkFactScan.Fact]) in
      Set(facts.map { fixture.setup.schema.policySchema.facts[$0.slot].name })
    }
    let narrowed = try SQLiteBulkFactScan(
      path: path, sql: GeneratedDataWriter.bulkQuery, schema: fixture.setup.schema,
      reading: run.reading)
    let whole = try SQLiteBulkFactScan(
      path: path, sql: GeneratedDataWriter.bulkQuery, schema: fixture.setup.schema)
    let read = names(try #require(try narrowed.facts(for: first)))
    let all = names(try #require(try whole.facts(for: first)))
    #expect(!read.isEmpty)
    #expect(read.isSubset(of: run.reading))
    #expect(all.contains("customer.lifetime_spent"))
    let selected = try #require(narrowed.query.components(separatedBy: " FROM (").first)
    #expect(selected.contains("customer.refunds_last_90_days"))
    #expect(!selected.contains("lifetime_spent"))
  }

  @Test func aBulkQueryColumnNoPolicyReadsIsStillChecked() async throws {
    let fixture = try DryRunFixture.shared()
    let misspelt = GeneratedDataWriter.bulkQuery.replacingOccurrences(
      of: "AS \"customer.lifetime_spent\"", with: "AS \"customer.lifetime_spend\"")
    #expect(misspelt != GeneratedDataWriter.bulkQuery)
    #expect(throws: SQLiteFactSourceError.self) {
      _ = try SQLiteBulkFactScan(
        path: fixture.folder + "/facts.sqlite", sql: misspelt, schema: fixture.setup.schema,
        reading: ["usage.consumed"])
    }
  }

  // Narrowing keeps one column per name, so a second column for the same fact would be dropped
  // without a word; the per-request queries refuse the same repeat.
  @Test(arguments: ["customer.lifetime_spent", "transaction_id"])
  func aBulkQueryNamingAColumnTwiceIsRefused(_ repeated: String) async throws {
    let fixture = try DryRunFixture.shared()
    let twice = GeneratedDataWriter.bulkQuery.replacingOccurrences(
      of: "c.vip AS \"custom.vip\"", with: "c.vip AS \"custom.vip\", 0 AS \"\(repeated)\"")
    #expect(twice != GeneratedDataWriter.bulkQuery)
    let error = try #require(throws: SQLiteFactSourceError.self) {
      _ = try SQLiteBulkFactScan(
        path: fixture.folder + "/facts.sqlite", sql: twice, schema: fixture.setup.schema,
        reading: ["usage.consumed"])
    }
    #expect(error == .duplicateFact(column: repeated, queries: ["bulkQuery", "bulkQuery"]))
  }

  @Test(arguments: [";", " ;\n", "\n-- the bulk query", "; -- the bulk query\n", "\n;\n\n"])
  func aBulkQueryEndingInASemicolonOrACommentIsNarrowedToo(_ ending: String) async throws {
    let fixture = try DryRunFixture.shared()
    let path = fixture.folder + "/facts.sqlite"
    let reading: Set<String> = ["usage.consumed", "customer.consented"]
    let first = try #require(
      (0..<fixture.generator.count).map { fixture.generator.request($0).transactionId }
        .min { BulkKeyOrder.compare($0, $1) < 0 })
    func facts(_ sql: String) throws -> [String: Value] {
      let scan = try SQLiteBulkFactScan(
        path: path, sql: sql, schema: fixture.setup.schema, reading: reading, lower: first,
        upper: nil)
      var named: [String: Value] = [:]
      for fact in try #require(try scan.facts(for: first)) {
        named[fixture.setup.schema.policySchema.facts[fact.slot].name] = fact.value
      }
      return named
    }
    let plain = try facts(GeneratedDataWriter.bulkQuery)
    #expect(Set(plain.keys) == reading)
    #expect(try facts(GeneratedDataWriter.bulkQuery + ending) == plain)
  }
}
