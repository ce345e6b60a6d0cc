import Foundation
import ReckonEngine
import Testing

@testable import ReckonTools

/// Requests whose transaction no fact source knows are counted apart (`withoutFacts`), so a
/// summary does not pass "no data for this purchase" off as "the customer did not consent";
/// they are decided as before, exactly as `reckon serve` would.
struct RequestsWithoutFactsTests {
  enum Path: String, CaseIterable, Sendable { case bulk, sequential }

  /// The fixture's requests with every 100th line's transaction one no fact source knows;
  /// the file and those lines' notification UUIDs.
  static func requestsWithUnknownTransactions() throws -> (path: String, unknown: Set<String>) {
    let fixture = try DryRunFixture.shared()
    var lines = try String(contentsOfFile: fixture.files.requests, encoding: .utf8)
      .split(separator: "\n").map(String.init)
    var unknown: Set<String> = []
    for index in stride(from: 0, to: lines.count, by: 100) {
      lines[index] = lines[index].replacingOccurrences(
        of: #""transactionId":"[0-9]+""#, with: #""transactionId":"9\#(index)""#,
        options: .regularExpression)
      let uuid = try #require(lines[index].firstMatch(of: /"notificationUUID":"([^"]+)"/))
      unknown.insert(String(uuid.1))
    }
    let path = fixture.folder + "/unknown-\(UUID().uuidString).jsonl"
    try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: path))
    return (path, unknown)
  }

  static func run(_ path: Path, _ file: String) async throws -> DryRunResult {
    let fixture = try DryRunFixture.shared()
    let policy = try fixture.policy("targeted")
    let against = try fixture.policy("prefer-refund")
    switch path {
    case .bulk:
      return try await BulkDryRun(
        policy: policy, against: against, schema: fixture.setup.schema,
        layers: try fixture.layers(), threads: 2
      ).run(RequestLines(path: file))
    case .sequential:
      return await SequentialDryRun(
        policy: policy, against: against, schema: fixture.setup.schema,
        facts: .current(fixture.setup.gatherer())
      ).run(try DryRunSetup.pastRequests(RequestLines(path: file), verifier: nil).requests)
    }
  }

  @Test(arguments: Path.allCases)
  func requestsNoFactSourceKnowsAreCountedApart(_ path: Path) async throws {
    let (file, unknown) = try Self.requestsWithUnknownTransactions()
    let result = try await Self.run(path, file)
    let without = Set(result.rows.filter { !$0.factsFound }.map(\.notificationUUID))
    #expect(without == unknown)
    #expect(DryRunSummary(result).withoutFacts == unknown.count)
    let fixture = try DryRunFixture.shared()
    #expect(DryRunSummary(try await Self.run(path, fixture.files.requests)).withoutFacts == 0)
  }

  @Test func requestsWithoutFactsAreDecidedAsEachRequestOnItsOwnIs() async throws {
    let (file, _) = try Self.requestsWithUnknownTransactions()
    let bulk = try await Self.run(.bulk, file)
    let sequential = try await Self.run(.sequential, file)
    #expect(bulk.rows.count == sequential.rows.count)
    #expect(
      zip(bulk.rows, sequential.rows).allSatisfy {
        $0.verdict == $1.verdict && $0.against == $1.against && $0.factsFound == $1.factsFound
      })
  }

  @Test func summariesShowHowManyRequestsHadNoFacts() async throws {
    let (file, unknown) = try Self.requestsWithUnknownTransactions()
    let result = try await Self.run(.bulk, file)
    let summary = DryRunSummary(result)
    #expect(
      DryRunText.render(result, summary).contains(
        "no facts found for \(unknown.count) requests (their transactions are in no fact source): "
          + "they are decided on the notification alone"))
    var json = ""
    DryRunRows.json(result, summary) { json += $0 }
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
    #expect((object["summary"] as? [String: Any])?["withoutFacts"] as? Int == unknown.count)
    #expect(
      HTMLReport.dryRun(result, summary).contains(
        #"<b id="without-facts">\#(unknown.count)</b>"#))
    let clean = try await Self.run(.bulk, try DryRunFixture.shared().files.requests)
    #expect(!DryRunText.render(clean, DryRunSummary(clean)).contains("no facts found"))
    #expect(!HTMLReport.dryRun(clean, DryRunSummary(clean)).contains("without-facts"))
  }
}
