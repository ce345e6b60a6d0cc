import Foundation
import ReckonAppStore
import Testing

/// The dry-run's HTML report names the dates and the policy it ran (name, version, SHA-256 of
/// its text, as serve records it) and charts the answers per period; over a state database, the
/// store's outcome per period too.
struct DryRunOverTimeTests {
  @Test func aDryRunOverAStateChartsTheStoresOutcomesBesideTheAnswers() async throws {
    let folder = try await DryRunCommandTests.generated(200, state: true)
    let policy = "policies/prefer-refund.policy"
    let run = try await ReckonBinary.run([
      "dry-run", "--config", folder + "/reckon.json", "--state", folder + "/reckon-state.sqlite",
      "--policy", policy, "--html", folder + "/report.html",
    ])
    #expect(run.status == 0, "\(run.standardError)")
    let html = try String(contentsOfFile: folder + "/report.html", encoding: .utf8)
    let hash = SHA256Digest.hex(try Data(contentsOf: URL(fileURLWithPath: policy)))
    #expect(html.contains("<code class=\"hash\">\(hash)</code>"))
    #expect(html.contains("id=\"answers-over-time\""))
    // Every generated request has an outcome.
    #expect(html.contains("<b id=\"store-outcomes\">200</b>"), "\(html.prefix(3_000))")
    #expect(html.contains("id=\"store-outcomes-over-time\""))
    let file = try await ReckonBinary.run([
      "dry-run", "--config", folder + "/reckon.json", "--requests", folder + "/requests.jsonl",
      "--policy", policy, "--html", folder + "/file.html",
    ])
    #expect(file.status == 0, "\(file.standardError)")
    let fromFile = try String(contentsOfFile: folder + "/file.html", encoding: .utf8)
    #expect(fromFile.contains("id=\"answers-over-time\""))
    #expect(!fromFile.contains("id=\"store-outcomes\""))
  }
}
