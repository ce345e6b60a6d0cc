import Foundation
import Testing

/// `reckon dry-run --requests` over a history with a line that cannot be read: by default the
/// run stops naming file:line and the flag that goes on; with `--skip-bad-lines` the line is
/// counted and left out, the rest decided, and the count shown without spoiling CSV or JSON.
struct DryRunBadLinesTests {
  /// A generated history of 20 requests with `{not json` as line 6.
  static func historyWithABadLine() async throws -> (folder: String, requests: String) {
    let folder = try await DryRunCommandTests.generated(20)
    var lines = try String(contentsOfFile: folder + "/requests.jsonl", encoding: .utf8)
      .split(separator: "\n").map(String.init)
    lines.insert("{not json", at: 5)
    let requests = folder + "/bad.jsonl"
    try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: requests))
    return (folder, requests)
  }

  @Test func aBadLineStopsTheRunNamingTheLineAndTheFlagThatGoesOn() async throws {
    let (folder, requests) = try await Self.historyWithABadLine()
    let run = try await ReckonBinary.run([
      "dry-run", "--config", folder + "/reckon.json", "--policy", "policies/targeted.policy",
      "--requests", requests,
    ])
    #expect(run.status == 1)
    #expect(run.standardOutput.isEmpty)
    #expect(run.standardError.contains("\(requests):6: not valid JSON"), "\(run.standardError)")
    #expect(
      run.standardError.trimmingCharacters(in: .whitespacesAndNewlines).hasSuffix(
        "add --skip-bad-lines"), "\(run.standardError)")
  }

  @Test(arguments: ["text", "csv", "json"])
  func skippedBadLinesAreCountedAndTheRestDecided(_ format: String) async throws {
    let (folder, requests) = try await Self.historyWithABadLine()
    let run = try await ReckonBinary.run([
      "dry-run", "--config", folder + "/reckon.json", "--policy", "policies/targeted.policy",
      "--requests", requests, "--skip-bad-lines", "--format", format,
    ])
    #expect(run.status == 0, "\(run.standardError)")
    let note = "unreadable lines left out: 1 (\(requests):6: not valid JSON"
    switch format {
    case "text":
      #expect(run.standardOutput.contains("dry-run of policy \"targeted\" over 20 requests"))
      #expect(run.standardOutput.contains(note), "\(run.standardOutput)")
      #expect(!run.standardError.contains("unreadable"))
    case "csv":
      #expect(run.standardOutput.split(separator: "\n").count == 21)
      #expect(run.standardError.contains(note), "\(run.standardError)")
    default:
      let object = try #require(
        try JSONSerialization.jsonObject(with: Data(run.standardOutput.utf8)) as? [String: Any])
      #expect(object["unreadable"] as? Int == 1)
      #expect((object["requests"] as? [Any])?.count == 20)
      #expect(run.standardError.contains(note), "\(run.standardError)")
    }
  }

  @Test func skipBadLinesIsRefusedWithTheStateDatabase() async throws {
    let folder = try await DryRunCommandTests.generated(5, state: true)
    let run = try await ReckonBinary.run([
      "dry-run", "--policy", "policies/targeted.policy", "--state",
      folder + "/reckon-state.sqlite", "--skip-bad-lines",
    ])
    #expect(run.status == 2)
    #expect(run.standardError.contains("--skip-bad-lines is for the lines of --requests"))
  }
}
