import Foundation
import ReckonEngine
import ReckonFacts
import ReckonPolicy
import Testing

struct FactGathererTests {
  /// Reads only usage and the body's facts.
  static let usagePolicy = """
    policy "usage"
    rule "used up"
      when usage.consumed >= 80%
      then refund DECLINE
    otherwise share data only
    """

  static let baseFacts: [String: Value] = [
    "customer.consented": .boolean(true), "delivery.status": .enumeration(0),
    "product.sample_offered": .boolean(false),
    "usage.consumed": .percent(90),
  ]

  func gather(
    _ layers: [LayeredFactSource.Layer], policy text: String = usagePolicy,
    records: (any RecordsFactProvider)? = nil
  )
    async throws -> (FactGathering.Outcome, CompiledPolicy)
  {
    let policy = try Fixtures.policy(text)
    let gatherer = FactGatherer(schema: Fixtures.schema, layers: layers, records: records)
    return (await gatherer.gather(try Fixtures.exampleRequest(), for: policy), policy)
  }

  @Test func theFirstSourceThatSuppliesAFactWins() async throws {
    let first = StubSource(name: "first", values: ["usage.consumed": .percent(10)])
    let second = StubSource(name: "second", values: Self.baseFacts)
    let (outcome, _) = try await gather([.init(first), .init(second)])
    guard case .ready(let facts) = outcome else {
      Issue.record("\(outcome)")
      return
    }
    #expect(facts.values["usage.consumed"] == .percent(10))
    #expect(facts.provenance["usage.consumed"] == "first")
    #expect(facts.provenance["delivery.status"] == "second")
    #expect(facts.provenance["reason"] == "notification")
  }

  @Test func notificationFactsCannotBeOverridden() async throws {
    let source = StubSource(
      name: "db", values: Self.baseFacts.merging(["reason": .enumeration(3)]) { a, _ in a })
    let (outcome, _) = try await gather([.init(source)])
    guard case .ready(let facts) = outcome else {
      Issue.record("\(outcome)")
      return
    }
    #expect(facts.values["reason"] == .enumeration(2))
    #expect(facts.provenance["reason"] == "notification")
    #expect(facts.refused == ["db supplied reason, which only the signed notification may give"])
  }

  /// A source is judged by what it declares when it fails, so a fact beyond that is refused when
  /// it answers: the request is decided on the same facts either way.
  @Test func aFactASourceDoesNotDeclareIsRefused() async throws {
    var source = StubSource(name: "crm", values: Self.baseFacts)
    source.suppliableFacts = ["customer.consented", "delivery.status", "product.sample_offered"]
    let (outcome, _) = try await gather([.init(source)])
    guard case .ready(let facts) = outcome else {
      Issue.record("\(outcome)")
      return
    }
    #expect(facts.values["usage.consumed"] == nil)
    #expect(facts.provenance["delivery.status"] == "crm")
    #expect(facts.refused == ["crm supplied usage.consumed, which it does not declare it supplies"])
  }

  @Test func aSourcesRefusedFactsAreSaidInTheOrderOfTheirNames() async throws {
    let source = StubSource(
      name: "db",
      values: Self.baseFacts.merging([
        "reason": .enumeration(3), "product.id": .text("x"), "usage.consumed": .text("most"),
        "now": .timestamp(0),
      ]) { _, new in new })
    let (outcome, _) = try await gather([.init(source)])
    guard case .ready(let facts) = outcome else {
      Issue.record("\(outcome)")
      return
    }
    #expect(facts.refused.count == 4)
    #expect(facts.refused[0] == "db supplied now, which only the signed notification may give")
    #expect(facts.refused[1].hasPrefix("db supplied product.id"))
    #expect(facts.refused[2].hasPrefix("db supplied reason"))
    #expect(facts.refused[3].hasPrefix("db: "), "\(facts.refused[3])")
    #expect(facts.refused[3].contains("usage.consumed"))
  }

  @Test func provenanceShowsInTheExplanation() async throws {
    let notes = StubSource(name: "support-notes", values: ["usage.consumed": .percent(95)])
    let (outcome, policy) = try await gather([
      .init(notes), .init(StubSource(name: "app-db", values: Self.baseFacts)),
    ])
    guard case .ready(let facts) = outcome else {
      Issue.record("\(outcome)")
      return
    }
    let decision = Decider(policy: policy, schema: Fixtures.schema).decide(
      try Fixtures.exampleRequest(), facts: facts, trace: true)
    let text = DecisionExplainer(policy: policy).render(decision, explain: true)
    #expect(text.contains("usage.consumed = 95% (from support-notes)"))
    #expect(decision.body?.deliveryStatus.rawValue == "DELIVERED")
  }

  @Test func aSlowSourceTimesOutAndTheRequestIsRetried() async throws {
    // The source would take ten minutes; the gatherer must give up at its 100 ms timeout, not
    // wait for it: had it waited, the facts would have come and the outcome would be `.ready`.
    // Returning before the source could have answered is what is pinned, not a wall-clock bound:
    // a debug test run on two busy cores can starve the task pool for a minute.
    let slow = StubSource(name: "crm", values: Self.baseFacts, delay: .seconds(600))
    let started = ContinuousClock.now
    let (outcome, _) = try await gather([.init(slow, timeout: .milliseconds(100))])
    #expect(ContinuousClock.now - started < .seconds(600))
    guard case .retry(let failure) = outcome else {
      Issue.record("\(outcome)")
      return
    }
    #expect(
      failure.failures == [
        FactSourceFailure(source: "crm", reason: .timedOut(after: .milliseconds(100)))
      ])
    #expect(failure.neededFacts.contains("usage.consumed"))
    #expect(
      failure.description.hasPrefix("retry later: crm timed out after 100 ms; the decision reads"))
  }

  @Test func aFailingSourceWhoseFactsArriveElsewhereFirstDoesNotMatter() async throws {
    let first = StubSource(name: "db", values: Self.baseFacts)
    let broken = StubSource(name: "crm", failure: "connection refused")
    let (outcome, policy) = try await gather([.init(first), .init(broken)])
    guard case .ready(let facts) = outcome else {
      Issue.record("\(outcome)")
      return
    }
    #expect(
      facts.failures == [FactSourceFailure(source: "crm", reason: .failed("connection refused"))])
    let decision = Decider(policy: policy, schema: Fixtures.schema).decide(
      try Fixtures.exampleRequest(), facts: facts, trace: true)
    #expect(
      DecisionExplainer(policy: policy).render(decision, explain: true).contains(
        "unavailable: crm failed: connection refused"))
  }

  @Test func aFailingSourceBeforeTheOneThatAnsweredMeansRetry() async throws {
    let broken = StubSource(name: "crm", failure: "connection refused")
    let (outcome, _) = try await gather([
      .init(broken), .init(StubSource(name: "db", values: Self.baseFacts)),
    ])
    guard case .retry(let failure) = outcome else {
      Issue.record("\(outcome)")
      return
    }
    #expect(
      failure.neededFacts == [
        "customer.consented", "delivery.status", "product.sample_offered", "usage.consumed",
      ])
  }

  @Test func partialFactsAreEnoughWhenThePolicyDoesNotReadTheFailedSourcesFacts() async throws {
    let vip = StubSource(
      name: "crm", failure: "timeout talking to CRM", suppliableFacts: ["custom.vip"])
    let (outcome, _) = try await gather([
      .init(vip), .init(StubSource(name: "db", values: Self.baseFacts)),
    ])
    guard case .ready(let facts) = outcome else {
      Issue.record("\(outcome)")
      return
    }
    #expect(facts.failures.map(\.source) == ["crm"])

    let vipPolicy = Self.usagePolicy.replacingOccurrences(
      of: "usage.consumed >= 80%", with: "custom.vip == true")
    let (readsVip, _) = try await gather(
      [.init(vip), .init(StubSource(name: "db", values: Self.baseFacts))], policy: vipPolicy)
    guard case .retry(let failure) = readsVip else {
      Issue.record("\(readsVip)")
      return
    }
    #expect(failure.neededFacts == ["custom.vip"])
  }

  @Test func factsReadFollowLetsAndSetActions() throws {
    let policy = try Fixtures.policy(
      """
      policy "reads"
      let spent = customer.lifetime_spent
      let big = spent > 100 USD
      rule "big"
        when big
        then refund DECLINE, set consumptionPercentage = usage.consumed
      otherwise share data only
      """)
    let reads = FactGathering.factsRead(by: policy)
    #expect(
      reads.isSuperset(of: ["customer.lifetime_spent", "usage.consumed", "customer.consented"]))
    #expect(!reads.contains("customer.override") && !reads.contains("custom.vip"))
  }

  struct Records: RecordsFactProvider {
    var fail = false
    var answersAtOnce = false
    func facts(for request: any ReplyRequest) async throws -> [String: Value] {
      if fail { throw StubSource.Failure(description: "state database is closed") }
      return ["history.earlier_requests": .number(2), "usage.consumed": .percent(1)]
    }
  }

  // Records that answer at once are read on the gathering task, the others on a task of their
  // own under a time limit: either way the same facts, and the same verdict when they fail.
  @Test(arguments: [false, true])
  func recordsGiveHistoryFactsFirstAndOnlyThose(answersAtOnce: Bool) async throws {
    let db = StubSource(
      name: "db",
      values: Self.baseFacts.merging(["history.earlier_requests": .number(9)]) { a, _ in a })
    let (outcome, _) = try await gather(
      [.init(db)], records: Records(answersAtOnce: answersAtOnce))
    guard case .ready(let facts) = outcome else {
      Issue.record("\(outcome)")
      return
    }
    #expect(facts.values["history.earlier_requests"] == .number(2))
    #expect(facts.provenance["history.earlier_requests"] == "records")
    #expect(facts.provenance["usage.consumed"] == "db")

    let historyPolicy = Self.usagePolicy.replacingOccurrences(
      of: "usage.consumed >= 80%", with: "history.earlier_requests > 0")
    let (failed, _) = try await gather(
      [.init(db)], policy: historyPolicy,
      records: Records(fail: true, answersAtOnce: answersAtOnce))
    guard case .retry(let failure) = failed else {
      Issue.record("\(failed)")
      return
    }
    #expect(failure.neededFacts == ["history.earlier_requests"])
  }

  @Test func theSQLiteSourceThroughTheGathererDecidesTheExampleRequest() async throws {
    let path = try Fixtures.exampleDatabase()
    let db = try SQLiteFactSource(
      name: "app-db", settings: .init(path: path, queries: Fixtures.exampleQueries()),
      schema: Fixtures.schema)
    let policy = try Fixtures.policy(
      String(contentsOf: Fixtures.repo("policies/targeted.policy"), encoding: .utf8))
    let gatherer = FactGatherer(schema: Fixtures.schema, layers: [.init(db)])
    guard case .ready(let facts) = await gatherer.gather(try Fixtures.exampleRequest(), for: policy)
    else {
      Issue.record("not ready")
      return
    }
    let decision = Decider(policy: policy, schema: Fixtures.schema).decide(
      try Fixtures.exampleRequest(), facts: facts)
    #expect(decision.rule == "heavy use")
    #expect(decision.body?.refundPreference?.rawValue == "DECLINE")
  }
}

/// A source serving both stores' apps gives an App Store request a value in Google's words:
/// the request waits only if its decision reads that fact and no earlier source gave it.
struct OtherStoresWordsGatheringTests {
  static let overridePolicy = """
    policy "override"
    rule "support" when customer.override is not missing then follow customer.override
    otherwise share data only
    """

  func source(_ override: String, name: String = "shared") throws -> JSONFileFactSource {
    let file = try Fixtures.temporaryFolder().appendingPathComponent("facts.json")
    let json = """
      {"byTransactionId": {"\(Fixtures.exampleKeys.transactionId!)": {
        "customer.consented": true, "delivery.status": "DELIVERED",
        "product.sample_offered": false, "usage.consumed": "90%",
        "customer.override": "\(override)"}}}
      """
    try Fixtures.write(json, to: file)
    return try JSONFileFactSource(
      name: name, path: file.path,
      schema: Fixtures.schema.readingSources(alongside: [.appStore, .googlePlay]))
  }

  func gather(_ layers: [LayeredFactSource.Layer], policy: String) async throws
    -> FactGathering.Outcome
  {
    let gatherer = FactGatherer(schema: Fixtures.schema, layers: layers)
    return await gatherer.gather(try Fixtures.exampleRequest(), for: try Fixtures.policy(policy))
  }

  @Test func aDecisionThatDoesNotReadTheValueIsMadeOnTheRest() async throws {
    let outcome = try await gather(
      [.init(try source("APPROVE"))], policy: FactGathererTests.usagePolicy)
    guard case .ready(let facts) = outcome else {
      Issue.record("\(outcome)")
      return
    }
    #expect(facts.values["usage.consumed"] == .percent(90))
    #expect(facts.values["customer.override"] == nil)
    // The source answered: the value is refused, not the source unavailable.
    #expect(facts.failures.isEmpty, "\(facts.failures)")
    #expect(facts.refused.count == 1, "\(facts.refused)")
    #expect(facts.refused.first?.hasPrefix("shared: ") == true, "\(facts.refused)")
    #expect(facts.refused.first?.contains("APPROVE is a Google Play value") == true)
  }

  @Test func aDecisionThatReadsTheValueWaits() async throws {
    let outcome = try await gather([.init(try source("NEUTRAL"))], policy: Self.overridePolicy)
    guard case .retry(let failure) = outcome else {
      Issue.record("\(outcome)")
      return
    }
    #expect(failure.neededFacts == ["customer.override"])
    #expect(failure.description.contains("NEUTRAL is a Google Play value"), "\(failure)")
  }

  @Test func anEarlierSourcesValueWins() async throws {
    let first = StubSource(name: "support", values: ["customer.override": .enumeration(2)])
    let outcome = try await gather(
      [.init(first), .init(try source("APPROVE"))], policy: Self.overridePolicy)
    guard case .ready(let facts) = outcome else {
      Issue.record("\(outcome)")
      return
    }
    #expect(facts.provenance["customer.override"] == "support")
    #expect(facts.provenance["usage.consumed"] == "shared")
  }
}
