import Foundation
import Testing

/// `reckon dry-run --requests` with `--config` decides only the requests `reckon serve` would
/// answer: lines for an app the configuration does not list, or for a listed app in another
/// environment, are left out and counted.
struct DryRunOtherAppsTests {
  /// A generated history whose second line is for another app and third for another environment.
  static func historyWithOtherApps() async throws -> String {
    let folder = try await DryRunCommandTests.generated(20)
    let path = folder + "/requests.jsonl"
    var lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map(
      String.init)
    lines[1] = lines[1].replacingOccurrences(of: "com.example.coins", with: "com.other.app")
    let production = #""data":{"environment":"Production""#
    #expect(lines[2].contains(production))
    lines[2] = lines[2].replacingOccurrences(
      of: production, with: #""data":{"environment":"Sandbox""#)
    try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: path))
    return folder
  }

  @Test(arguments: ["text", "json", "csv"])
  func requestsForAppsNotConfiguredAreLeftOutAndCounted(_ format: String) async throws {
    let folder = try await Self.historyWithOtherApps()
    let run = try await ReckonBinary.run([
      "dry-run", "--config", folder + "/reckon.json", "--policy", "policies/targeted.policy",
      "--requests", folder + "/requests.jsonl", "--format", format,
    ])
    #expect(run.status == 0, "\(run.standardError)")
    switch format {
    case "text":
      #expect(run.standardOutput.contains("dry-run of policy \"targeted\" over 18 requests"))
      #expect(run.standardOutput.contains("2 requests for apps not in reckon.json left out"))
    case "json":
      #expect(run.standardOutput.contains(#""total":18,"ignored":0,"otherApps":2,"#))
    default:
      #expect(run.standardOutput.split(separator: "\n").count == 19)
    }
    #expect(!run.standardOutput.contains("com.other.app"))
  }
}

/// A dry-run over a requests file with nothing to decide exits 0, as there is no error, but says
/// on standard error that nothing was decided and why.
struct DryRunNothingDecidedTests {
  @Test(arguments: [
    (0, "holds no CONSUMPTION_REQUEST"),
    (2, "holds no CONSUMPTION_REQUEST to decide, only 2 other notifications"),
  ])
  func anEmptyRunWarnsOnStandardError(_ otherNotifications: Int, _ why: String) async throws {
    let folder = try await DryRunCommandTests.generated(5)
    // Generated requests turned into another notification type.
    let others = try String(contentsOfFile: folder + "/requests.jsonl", encoding: .utf8)
      .split(separator: "\n").prefix(otherNotifications).map {
        $0.replacingOccurrences(of: "CONSUMPTION_REQUEST", with: "REFUND_DECLINED") + "\n"
      }
    let requests = folder + "/empty.jsonl"
    try Data(others.joined().utf8).write(to: URL(fileURLWithPath: requests))
    let run = try await ReckonBinary.run([
      "dry-run", "--config", folder + "/reckon.json", "--policy", "policies/targeted.policy",
      "--requests", requests,
    ])
    #expect(run.status == 0, "\(run.standardError)")
    #expect(
      run.standardError.contains("warning: nothing was decided: \(requests) \(why)"),
      "\(run.standardError)")
  }
}

/// A dry-run whose per-request queries fail says so: it decided from the bulk query, but
/// `reckon serve` would fail to gather facts.
struct DryRunUncheckedBulkQueryTests {
  @Test func aFailingPerRequestQueryIsWarnedAboutOnStandardError() async throws {
    let folder = try await DryRunCommandTests.generated(20)
    let configuration = folder + "/reckon.json"
    let text = try String(contentsOfFile: configuration, encoding: .utf8)
    let lookup = "WHERE p.transaction_id = :transaction_id"
    #expect(text.contains(lookup))
    try Data(
      text.replacingOccurrences(
        of: lookup, with: lookup + " AND abs(-9223372036854775807 - 1) > 0"
      ).utf8
    ).write(to: URL(fileURLWithPath: configuration))
    let run = try await ReckonBinary.run([
      "dry-run", "--config", configuration, "--policy", "policies/targeted.policy",
      "--requests", folder + "/requests.jsonl",
    ])
    #expect(run.status == 0, "\(run.standardError)")
    #expect(
      run.standardError.contains(
        "warning: app-db's bulkQuery was not checked against its per-request queries"),
      "\(run.standardError)")
  }
}
