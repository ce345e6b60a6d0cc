import Foundation
import ReckonTestSupport
import Testing

/// `reckon queue show` says why the entry's decision came out as it did (the deciding rule's
/// conditions, and why each earlier rule did not match), as `reckon eval --explain` does: what a
/// person reviewing a held entry asks first.
struct QueueShowWhyTests {
  @Test func showSaysWhichRuleDecidedAndWhyInTextAndJSON() async throws {
    let folder = try await ReportOutcomesOptionTests.generated()
    let configuration = folder + "/reckon.json"
    let text = try await ReckonBinary.run(["queue", "show", "1", "--config", configuration])
    #expect(text.status == 0, "\(text.standardError)")
    let lines = text.standardOutput.split(separator: "\n").map(String.init)
    let decided = try #require(lines.firstIndex { $0.hasPrefix("decided at ") })
    #expect(lines[decided + 1] == "Why:", "\(text.standardOutput)")
    let rule = try #require(lines[decided].split(separator: "'").dropFirst().first)
    #expect(
      lines[decided + 2].hasPrefix("  Rule \"\(rule)\" (line ")
        || lines[decided + 2].contains("'otherwise"), "\(text.standardOutput)")
    #expect(lines.contains { $0.hasPrefix("Missing facts: ") }, "\(text.standardOutput)")
    let json = try await ReckonBinary.run([
      "queue", "show", "1", "--config", configuration, "--format", "json",
    ])
    let object = try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8))
    let decision = (object as? [String: Any])?["decision"] as? [String: Any]
    let explanation = decision?["explanation"] as? [String: Any]
    #expect(explanation?["decidedBy"] as? String == String(rule), "\(json.standardOutput)")
    #expect(explanation?["because"] is [Any])
  }

  @Test func aDecisionStoredWithoutItsExplanationSaysSo() async throws {
    let fixture = try QueueFixture()
    let show = try await fixture.queue(["show", "1"])
    #expect(show.status == 0, "\(show.standardError)")
    #expect(show.standardOutput.contains("\nWhy: not recorded with this decision\n"))
  }
}
