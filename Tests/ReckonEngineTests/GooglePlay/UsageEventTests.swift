import Foundation
import ReckonEngine
import ReckonFacts
import ReckonGooglePlay
import ReckonPolicy
import ReckonSQLite
import ReckonSupport
import ReckonTestSupport
import Testing

/// A Google Play answer carries the purchase's recorded uses, drawn from a fact source's
/// `usageEventsQuery`; an answer waits while that source fails, since only the first counts.
@Suite struct UsageEventTests {
  /// A database with one purchase and three uses of it.
  static func database() throws -> String {
    let path = TestScratch.folder.appendingPathComponent("events-\(UUID()).sqlite").path
    let database = try SQLiteDatabase(path: path, options: [.readWrite, .create])
    try database.execute(
      """
      CREATE TABLE orders (order_id TEXT, consented INTEGER, sample INTEGER, used REAL);
      INSERT INTO orders VALUES ('GPA.3312-5841-2290-11234', 1, 0, 45.2);
      CREATE TABLE uses (order_id TEXT, used_at INTEGER, ip TEXT, country TEXT, what TEXT);
      INSERT INTO uses VALUES
        ('GPA.3312-5841-2290-11234', 1795000000000, '203.0.113.7', 'DE', 'opened pack 1'),
        ('GPA.3312-5841-2290-11234', 1795900000000, '2001:db8::1', NULL, 'opened pack 2'),
        ('GPA.other', 1795900000000, '203.0.113.9', 'US', 'not this order');
      """)
    return path
  }

  static func setup(path: String, events: String) throws -> FactSourceSetup {
    let json = """
      {"apps": [{"store": "googlePlay", "packageName": "com.example.play", "policy": "p.policy"}],
       "googlePlay": {"push": {"audience": "a", "serviceAccountEmail": "p@x"}},
       "factSources": [{"name": "app", "type": "sqlite", "path": "\(path)",
       "queries": {"order": "SELECT consented AS \\"customer.consented\\", sample AS \\"product.sample_offered\\", used AS \\"usage.consumed\\", 'DELIVERED' AS \\"delivery.status\\" FROM orders WHERE order_id = :transaction_id"},
       "usageEventsQuery": "\(events)"}]}
      """
    let root = try #require(try JSONValue.parse(Data(json.utf8)).objectValue)
    let configuration = try ReckonConfiguration(
      ConfigurationReader(root, path: ""), baseDirectory: "/tmp")
    return try FactSourceSetup(configuration.factSources, sourcesStore: .googlePlay)
  }

  static let events =
    "SELECT used_at AS consumptionTime, ip AS ipAddress, country AS regionCode, what AS consumptionItemDescription FROM uses WHERE order_id = :transaction_id"

  /// RFC 3339 text with a fraction of a second, or milliseconds kept as text, is a time too: it
  /// was left out of the event without a word.
  @Test(arguments: [
    ("2026-11-03T10:15:30.5Z", 1_793_700_930.5),
    ("2026-11-03T10:15:30.123+02:00", 1_793_693_730.123),
    ("1796000000000", 1_796_000_000.0),
    (" 1796000000000 ", 1_796_000_000.0),
  ])
  func aTimeWrittenAsTextIsRead(text: String, seconds: Double) async throws {
    let path = TestScratch.folder.appendingPathComponent("events-\(UUID()).sqlite").path
    let database = try SQLiteDatabase(path: path, options: [.readWrite, .create])
    try database.execute(
      """
      CREATE TABLE orders (order_id TEXT, consented INTEGER, sample INTEGER, used REAL);
      CREATE TABLE uses (order_id TEXT, used_at TEXT, ip TEXT, country TEXT, what TEXT);
      INSERT INTO uses VALUES ('GPA.1', '\(text)', NULL, NULL, 'opened');
      """)
    let setup = try Self.setup(path: path, events: Self.events)
    let layer = try #require(setup.usageEvents.first)
    let events = try await layer.source.usageEvents(
      for: RequestKeys(
        transactionId: "GPA.1", originalTransactionId: nil, appAccountToken: nil, productId: nil,
        bundleId: nil))
    let time = try #require(events.first?.time)
    #expect(abs(time.timeIntervalSince1970 - seconds) < 0.000_5, "\(time)")
  }

  @Test func theAnswerCarriesTheOrdersUsesMostRecentFirst() async throws {
    let setup = try Self.setup(path: try Self.database(), events: Self.events)
    let gatherer = FactGatherer(
      schema: .googlePlay, layers: setup.layers, usageEvents: setup.usageEvents)
    let request = GooglePlayScenario().request
    guard case .ready(let facts) = await gatherer.gather(request, reading: ["usage.consumed"])
    else {
      Issue.record("not ready")
      return
    }
    let loaded = PolicyLoader.load(
      SourceFile(path: "p", text: "otherwise refund DECLINE"),
      schema: FactSchema.googlePlay.policySchema)
    let decision = Decider(policy: try #require(loaded.policy), schema: .googlePlay).decide(
      request, facts: facts)
    #expect(decision.action == .respond)
    #expect(
      decision.answer?.consumptionUsageEvents == [
        ConsumptionUsageEvent(
          consumptionTime: RFC3339Time.text(Date(timeIntervalSince1970: 1_795_900_000)),
          ipAddress: "2001:db8::1", consumptionItemDescription: "opened pack 2"),
        ConsumptionUsageEvent(
          consumptionTime: RFC3339Time.text(Date(timeIntervalSince1970: 1_795_000_000)),
          ipAddress: "203.0.113.7", location: CoarseLocation(regionCode: "DE"),
          consumptionItemDescription: "opened pack 1"),
      ])
    #expect(
      decision.fieldSources["consumptionUsageEvents"] == .default("2 usage events from 'app'"))
    // The explanation says where they came from, as for every other field of the answer.
    let explained = DecisionExplainer(policy: try #require(loaded.policy)).render(
      decision, explain: true)
    #expect(
      explained.contains("  consumptionUsageEvents: 2 usage events from 'app'\n"), "\(explained)")
  }

  /// Blank text is no time, as NULL is: the event goes without one rather than hold the answer.
  @Test func aBlankTimeIsNoTime() async throws {
    let path = TestScratch.folder.appendingPathComponent("events-\(UUID()).sqlite").path
    let database = try SQLiteDatabase(path: path, options: [.readWrite, .create])
    try database.execute(
      """
      CREATE TABLE orders (order_id TEXT, consented INTEGER, sample INTEGER, used REAL);
      CREATE TABLE uses (order_id TEXT, used_at, ip TEXT, country TEXT, what TEXT);
      INSERT INTO uses VALUES ('GPA.1', '', NULL, NULL, 'a'), ('GPA.1', '  ', NULL, NULL, 'b');
      """)
    let layer = try #require(try Self.setup(path: path, events: Self.events).usageEvents.first)
    let events = try await layer.source.usageEvents(
      for: RequestKeys(
        transactionId: "GPA.1", originalTransactionId: nil, appAccountToken: nil, productId: nil,
        bundleId: nil))
    #expect(events.count == 2)
    #expect(events.allSatisfy { $0.time == nil })
  }

  /// A time that does not read fails the lookup, naming it, rather than send Google an event
  /// without its time or dated 1970.
  @Test(arguments: [
    ("'spent 100 coins'", "'spent 100 coins' is neither UNIX milliseconds nor an RFC 3339 time"),
    ("'2026-11-29'", "'2026-11-29' is neither UNIX milliseconds nor an RFC 3339 time"),
    ("1795950000", "looks like seconds"),
    ("'1795950000'", "looks like seconds"),
  ])
  func aTimeThatDoesNotReadFailsTheLookup(written: String, problem: String) async throws {
    let path = TestScratch.folder.appendingPathComponent("events-\(UUID()).sqlite").path
    let database = try SQLiteDatabase(path: path, options: [.readWrite, .create])
    try database.execute(
      """
      CREATE TABLE orders (order_id TEXT, consented INTEGER, sample INTEGER, used REAL);
      CREATE TABLE uses (order_id TEXT, used_at, ip TEXT, country TEXT, what TEXT);
      INSERT INTO uses VALUES ('GPA.1', \(written), NULL, NULL, 'opened');
      """)
    let layer = try #require(try Self.setup(path: path, events: Self.events).usageEvents.first)
    let error = await #expect(throws: SQLiteFactSourceError.self) {
      try await layer.source.usageEvents(
        for: RequestKeys(
          transactionId: "GPA.1", originalTransactionId: nil, appAccountToken: nil,
          productId: nil, bundleId: nil))
    }
    #expect(error?.description.contains(problem) == true, "\(String(describing: error))")
    #expect(error?.description.contains("usageEventsQuery") == true)
  }

  @Test(arguments: [
    (
      "SELECT used_at AS usedAt FROM uses WHERE order_id = :transaction_id",
      "is not a part of a usage event"
    ),
    (
      "SELECT used_at AS consumptionTime FROM uses WHERE order_id = :order",
      "unknown parameter :order"
    ),
    ("DELETE FROM uses", "would change the database"),
  ])
  func aQueryThatCannotListEventsIsRefusedAtStart(sql: String, problem: String) throws {
    let path = try Self.database()
    let error = #expect(throws: ConfigurationError.self) { try Self.setup(path: path, events: sql) }
    #expect(error?.key == "factSources[0].usageEventsQuery", "\(String(describing: error))")
    #expect(error?.description.contains(problem) == true, "\(String(describing: error))")
  }

  /// Events that fail.
  struct Down: UsageEventSource {
    let name = "events"
    func usageEvents(for keys: RequestKeys) async throws -> [UsageEvent] { throw Failure() }
    struct Failure: Error {}
  }

  @Test func anAnswerWaitsWhileItsEventsCannotBeRead() async throws {
    let gatherer = FactGatherer(
      schema: .googlePlay, layers: [], usageEvents: [UsageEventLayer(source: Down())])
    guard
      case .retry(let failure) = await gatherer.gather(GooglePlayScenario().request, reading: [])
    else {
      Issue.record("decided without its events")
      return
    }
    #expect(failure.neededFacts == ["usage events"])
  }

  /// The decision of `otherwise refund NEUTRAL` on a consented review, with `events` its
  /// usage events.
  static func neutralAnswer(events: some UsageEventSource) async throws -> Decision {
    let gatherer = FactGatherer(
      schema: .googlePlay, layers: [], usageEvents: [UsageEventLayer(source: events)])
    let scenario = GooglePlayScenario()
    guard case .ready(var facts) = await gatherer.gather(scenario.request, reading: []) else {
      throw NotReady()
    }
    facts.add(
      ["customer.consented": .boolean(true), "product.sample_offered": .boolean(false)],
      from: "test", schema: .googlePlay)
    let loaded = PolicyLoader.load(
      SourceFile(path: "p", text: "otherwise refund NEUTRAL"),
      schema: FactSchema.googlePlay.policySchema)
    return Decider(policy: try #require(loaded.policy), schema: .googlePlay).decide(
      scenario.request, facts: facts)
  }

  /// The facts were not gathered.
  struct NotReady: Error {}

  /// Events, one a minute, some of which break Google's rules.
  struct Flawed: UsageEventSource {
    let name = "events"
    func usageEvents(for keys: RequestKeys) async throws -> [UsageEvent] {
      var bad = UsageEvent(time: Date(timeIntervalSince1970: 1_795_000_120))
      bad.ipAddress = "999.1.1.1"
      var country = UsageEvent(time: Date(timeIntervalSince1970: 1_795_000_060))
      country.regionCode = "USA"
      var good = UsageEvent(time: Date(timeIntervalSince1970: 1_795_000_000))
      good.ipAddress = "203.0.113.7"
      return [bad, country, good]
    }
  }

  /// An event is evidence: one that breaks Google's rules is left out, named in the answer's
  /// explanation, and the answer still goes, as Google takes only one.
  @Test func anEventThatBreaksGooglesRulesIsLeftOutAndTheAnswerGoes() async throws {
    let decision = try await Self.neutralAnswer(events: Flawed())
    #expect(decision.action == .respond, "\(decision.action)")
    #expect(decision.answer?.consumptionUsageEvents?.map(\.ipAddress) == ["203.0.113.7"])
    #expect(
      decision.fieldSources["consumptionUsageEvents"]
        == .default(
          "1 usage event from 'events'; 2 left out, breaking Google's rules (counted most recent "
            + "first): consumptionUsageEvents[0].ipAddress \"999.1.1.1\" is not an IP address; "
            + "consumptionUsageEvents[1].location.regionCode \"USA\" is not a CLDR region code"))
  }

  /// Many events, one a minute.
  struct Many: UsageEventSource {
    let name = "events"
    let count: Int
    func usageEvents(for keys: RequestKeys) async throws -> [UsageEvent] {
      (0..<count).map {
        UsageEvent(time: Date(timeIntervalSince1970: 1_795_000_000 + Double($0) * 60))
      }
    }
  }

  @Test func noMoreEventsGoThanGoogleTakesTheMostRecentKept() async throws {
    let decision = try await Self.neutralAnswer(events: Many(count: 1_200))
    #expect(decision.action == .respond)
    let events = try #require(decision.answer?.consumptionUsageEvents)
    #expect(events.count == 1_000)
    #expect(
      events.first?.consumptionTime
        == RFC3339Time.text(Date(timeIntervalSince1970: 1_795_000_000 + 1_199 * 60)))
    #expect(
      decision.fieldSources["consumptionUsageEvents"]
        == .default("the 1000 most recent of 1200 usage events from 'events'"))
  }
}
