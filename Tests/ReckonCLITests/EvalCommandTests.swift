import Foundation
import ReckonTestSupport
import Testing

/// `reckon eval`'s inputs: `--now` read as the other date options are, and a `--facts` file
/// whose problems are all named, with its file and fact, and never dropped silently.
struct EvalCommandTests {
  static let fixtures = "Tests/ReckonCLITests/Fixtures"
  static let eval = [
    "eval", "--policy", "policies/targeted.policy", "--request", "\(fixtures)/request.json",
  ]

  /// The value of the fact `name` in `eval --format json`'s output.
  static func fact(_ name: String, in run: ReckonBinary.Run) throws -> String? {
    let report = try JSONSerialization.jsonObject(with: Data(run.standardOutput.utf8))
    let facts = try #require((report as? [String: Any])?["facts"] as? [[String: Any]])
    return facts.first { $0["name"] as? String == name }?["value"] as? String
  }

  @Test func nowTakesAWholeDayAsDryRunSinceDoes() async throws {
    let run = try await ReckonBinary.run(
      Self.eval + [
        "--facts", "\(Self.fixtures)/facts.json", "--now", "2026-11-01", "--format", "json",
      ])
    #expect(run.status == 0, "\(run.standardError)")
    #expect(try Self.fact("now", in: run) == "2026-11-01T00:00:00Z")
  }

  @Test func nowWithATimeButNoZoneIsRefused() async throws {
    let run = try await ReckonBinary.run(
      Self.eval + ["--facts", "\(Self.fixtures)/facts.json", "--now", "2026-11-01T09:30"])
    #expect(run.status == 2)
    #expect(
      run.standardError.hasPrefix("reckon eval: --now: '2026-11-01T09:30' has no time zone"),
      "\(run.standardError)")
  }
}
