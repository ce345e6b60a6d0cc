import Foundation
import ReckonAppStore
import ReckonFacts
import ReckonPolicy
import ReckonState
import Testing

@testable import ReckonEngine

/// Decision records and webhook answers written by `JSONTextWriter` must be exactly what
/// `JSONEncoder` wrote before, so stored records read the same whichever version wrote them.
@Suite struct DecisionRecordJSONTests {
  static let awkward = [
    "", "plain", "quote \" and backslash \\", "slash / here", "tab\tnew\nline\rcr",
    "bell \u{07} nul \u{00} unit \u{1F} del \u{7F}", "é ü 中文 🙂", "\u{08}\u{0C}",
  ]

  @Test func webhookAnswerBodiesMatchJSONEncoder() throws {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    for fields in [[:], ["rule": "asked again", "action": "refund", "entry": "12"]]
      + Self.awkward.map({ ["error": $0, "retry": "a/b"] })
    {
      let answer = WebhookAnswer(status: 200, type: nil, verdict: .decided, fields: fields)
      var expected = fields
      expected["result"] = "decided"
      #expect(
        String(decoding: answer.body, as: UTF8.self)
          == String(decoding: try encoder.encode(expected), as: UTF8.self))
    }
  }

  static let scenarios: [Scenario] = [
    Scenario(),
    Scenario().with("usage.consumed", "100%"),
    Scenario().with("delivery.status", "UNDELIVERED_OTHER").with("usage.consumed", nil),
    Scenario().with("customer.consented", "false"),
    Scenario().with("customer.consented", nil).with("product.sample_offered", nil),
  ]

  static func shippedPolicies() throws -> [String] {
    let folder = Repository.path("policies")
    return try FileManager.default.contentsOfDirectory(atPath: folder).filter {
      $0.hasSuffix(".policy")
    }.sorted().map { try String(contentsOfFile: folder + "/" + $0, encoding: .utf8) }
  }

  @Test func decisionRecordsMatchJSONEncoder() throws {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    var compared = 0
    for text in try Self.shippedPolicies() {
      let loaded = PolicyLoader.load(
        SourceFile(path: "shipped.policy", text: text), schema: FactSchema.standard.policySchema)
      let policy = try #require(loaded.policy)
      for scenario in Self.scenarios {
        for trace in [true, false] {
          let decision = Decider(policy: policy, schema: .standard).decide(
            scenario.request, facts: try scenario.gathered(), trace: trace)
          let record = DecisionRecord(decision: decision, policy: policy, policyText: text)
          let report = DecisionReport(decision, policy: policy)
          #expect(record.explanationJSON == (try encoder.encode(report)))
          #expect(record.factsJSON == (try encoder.encode(report.facts)))
          #expect(record.body == (try decision.body?.jsonData()))
          #expect(record.policySHA256.count == 64)
          compared += 1
        }
      }
    }
    #expect(compared >= 20)
  }

  /// The followed fact and the hold that held the decision are written as `JSONEncoder` writes
  /// them too.
  @Test func aFollowAndAHoldMatchJSONEncoder() throws {
    let text = DecisionExplanationTests.followAndHold
    let loaded = PolicyLoader.load(
      SourceFile(path: "p.policy", text: text), schema: FactSchema.standard.policySchema)
    let policy = try #require(loaded.policy)
    let scenario = Scenario().with("usage.consumed", "90%").with("customer.override", "DECLINE")
    let decision = Decider(policy: policy, schema: .standard).decide(
      scenario.request, facts: try scenario.gathered(), trace: true)
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    let record = DecisionRecord(decision: decision, policy: policy, policyText: text)
    let written = String(decoding: record.explanationJSON ?? Data(), as: UTF8.self)
    #expect(written.contains(#""followed":{"fact":"customer.override","value":"DECLINE"}"#))
    #expect(written.contains(#""hold":{"because":[{"#), "\(written)")
    #expect(
      record.explanationJSON == (try encoder.encode(DecisionReport(decision, policy: policy))))
  }

  /// A rule whose result is unknown, and a condition whose value is, are written `null`, as
  /// docs/language.md says, in the record and in `eval`'s JSON alike.
  @Test func anUnknownResultOrValueInTheTraceIsWrittenNull() throws {
    let text = """
      rule "r"
        when usage.consumed > 50% and customer.override == DECLINE
        then refund DECLINE
      otherwise share data only
      """
    let loaded = PolicyLoader.load(
      SourceFile(path: "p.policy", text: text), schema: FactSchema.standard.policySchema)
    let policy = try #require(loaded.policy)
    var scenario = Scenario()
    scenario.facts["usage.consumed"] = "90%"
    let decision = Decider(policy: policy, schema: .standard).decide(
      scenario.request, facts: try scenario.gathered(), trace: true)
    let record = DecisionRecord(decision: decision, policy: policy, policyText: text)
    for json in [
      record.explanationJSON ?? Data(),
      Data(DecisionReport(decision, policy: policy).jsonText().utf8),
    ] {
      let object = try #require(try JSONSerialization.jsonObject(with: json) as? [String: Any])
      let attempt = try #require((object["trace"] as? [[String: Any]])?.first)
      #expect(attempt["result"] is NSNull, "\(attempt)")
      let conditions = try #require(attempt["conditions"] as? [[String: Any]])
      #expect(conditions.contains { $0["value"] is NSNull }, "\(conditions)")
      #expect(conditions.contains { $0["value"] as? String == "true" }, "\(conditions)")
    }
  }

  /// A source that failed and a fact refused are kept with the decision, not only in `eval`'s
  /// text: a source failing on every request was otherwise invisible in operation.
  @Test func aDecisionRecordKeepsUnavailableSourcesAndRefusedFacts() throws {
    let text =
      "rule \"r\"\n  when usage.consumed >= 80%\n  then refund DECLINE\notherwise share data only"
    let loaded = PolicyLoader.load(
      SourceFile(path: "p.policy", text: text), schema: FactSchema.standard.policySchema)
    let policy = try #require(loaded.policy)
    let scenario = Scenario()
    var facts = try scenario.gathered()
    facts.add(["reason": .enumeration(0)], from: "db", schema: .standard)
    facts.failures = [
      FactSourceFailure(source: "notes", reason: .timedOut(after: .milliseconds(500)))
    ]
    let decision = Decider(policy: policy, schema: .standard).decide(
      scenario.request, facts: facts, trace: true)
    let record = DecisionRecord(decision: decision, policy: policy, policyText: text)
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    #expect(
      record.explanationJSON == (try encoder.encode(DecisionReport(decision, policy: policy))))
    let json = String(decoding: record.explanationJSON ?? Data(), as: UTF8.self)
    #expect(
      json.contains(
        #""refusedFacts":["db supplied reason, which only the signed notification may give"]"#))
    #expect(json.contains(#""unavailableSources":["notes"#), "\(json)")
    let event = ReckonEvent.decided(
      requestId: 1, transactionId: "t", action: "respond", rule: "r", reason: nil, entryId: 1,
      factProblems: ["unavailable: notes timed out"])
    #expect(event.level == "warning")
    #expect(event.fields["facts"] == .string("unavailable: notes timed out"))
  }
}
