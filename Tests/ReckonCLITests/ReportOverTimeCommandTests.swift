import Foundation
import ReckonTestSupport
import Testing

/// `reckon report outcomes --by` and `reckon report rules` as a user runs them over a
/// generated state.
struct ReportOverTimeCommandTests {
  @Test func outcomesByWeekAsCSVHaveARowPerWeekWithMoneyPerCurrency() async throws {
    let folder = try await ReportOutcomesOptionTests.generated()
    let run = try await ReckonBinary.run([
      "report", "outcomes", "--state", folder + "/reckon-state.sqlite", "--by", "week",
      "--format", "csv",
    ])
    #expect(run.status == 0, "\(run.standardError)")
    let lines = run.standardOutput.split(separator: "\n")
    #expect(
      lines.first?.hasPrefix("period,period_start,period_end,period_partial,section,group,") == true
    )
    #expect(lines.first?.contains(",net_refund_rate,average_prorated_percent,") == true)
    #expect(lines.first?.contains(",at_stake_USD,kept_USD") == true, "\(lines.first ?? "")")
    let weeks = lines.filter { $0.contains(",all,all,") }
    #expect(weeks.count >= 12, "\(weeks)")
    #expect(
      weeks.allSatisfy { $0.range(of: #"^\d{4}-W\d{2},"#, options: .regularExpression) != nil })
    let text = try await ReckonBinary.run([
      "report", "outcomes", "--state", folder + "/reckon-state.sqlite", "--by", "month",
    ])
    #expect(text.standardOutput.contains("By month (UTC)"), "\(text.standardOutput)")
    #expect(text.standardOutput.contains("money kept: USD"))
  }

  @Test(arguments: [
    (["--by", "fortnight"], "--by must be day, week or month"),
    (["--time-zone", "UTC"], "--time-zone needs --by"),
    (["--by", "day", "--time-zone", "Mars/Olympus"], "--time-zone Mars/Olympus is no time zone"),
  ])
  func aWrongPeriodIsAUsageError(_ options: [String], _ message: String) async throws {
    let run = try await ReckonBinary.run(
      ["report", "outcomes", "--state", "missing.sqlite"] + options)
    #expect(run.status == 2)
    #expect(run.standardError.contains(message), "\(run.standardError)")
  }

  @Test func rulesListEveryRuleOfTheConfiguredPolicyDeadOnesIncluded() async throws {
    let folder = try await ReportOutcomesOptionTests.generated()
    let run = try await ReckonBinary.run([
      "report", "rules", "--config", folder + "/reckon.json", "--format", "json",
      "--html", folder + "/rules.html",
    ])
    #expect(run.status == 0, "\(run.standardError)")
    // The shipped policy's support rules decide only for customers support marked.
    #expect(
      run.standardOutput.contains(#""rule":"support: do not respond","counts":{"decisions":0,"#))
    #expect(run.standardOutput.contains(#""rule":"heavy use""#))
    #expect(run.standardOutput.contains(#""notInPolicies":[]"#))
    let html = try String(contentsOfFile: folder + "/rules.html", encoding: .utf8)
    #expect(html.contains("<code class=\"hash\">"))
    // Against another policy, the state's rules are ones it does not have.
    let other = try await ReckonBinary.run([
      "report", "rules", "--state", folder + "/reckon-state.sqlite", "--policy",
      "policies/prefer-refund.policy", "--format", "csv",
    ])
    #expect(other.status == 0, "\(other.standardError)")
    #expect(other.standardOutput.contains("targeted,heavy use,false,"), "\(other.standardOutput)")
  }

  @Test func rulesWithoutAPolicySayWhatIsMissing() async throws {
    let run = try await ReckonBinary.run(["report", "rules", "--state", "missing.sqlite"])
    #expect(run.status == 2)
    #expect(run.standardError.contains("missing --policy FILE"), "\(run.standardError)")
  }

  /// A bare --since/--until date is midnight in the --time-zone asked for, so no partial day
  /// of the zone's makes a period of its own at either end of the window.
  @Test func aWindowOfBareDatesInAZoneGivesWholeDays() async throws {
    let folder = try await ReportOutcomesOptionTests.generated()
    let state = folder + "/reckon-state.sqlite"
    func periods(_ extra: [String]) async throws -> [[String: Any]] {
      let run = try await ReckonBinary.run(
        ["report", "outcomes", "--state", state, "--by", "day", "--format", "json"] + extra)
      #expect(run.status == 0, "\(run.standardError)")
      let object = try JSONSerialization.jsonObject(with: Data(run.standardOutput.utf8))
      return try #require((object as? [String: Any])?["periods"] as? [[String: Any]])
    }
    let days = try await periods([]).compactMap { $0["label"] as? String }
    try #require(days.count > 20, "\(days)")
    let window = try await periods([
      "--time-zone", "America/New_York", "--since", days[10], "--until", days[17],
    ])
    #expect(window.compactMap { $0["label"] as? String } == Array(days[10..<17]))
    let start = try #require(window.first?["start"] as? String)
    #expect(start.hasPrefix(days[10] + "T00:00:00-0"), "\(start)")
  }
}
