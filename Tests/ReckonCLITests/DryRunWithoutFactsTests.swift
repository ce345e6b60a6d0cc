import Foundation
import Testing

/// `reckon dry-run` tells requests whose transaction no fact source knows apart from those
/// decided on the facts, in the text summary and in the JSON summary.
struct DryRunWithoutFactsTests {
  @Test(arguments: ["text", "json"])
  func requestsWhoseTransactionIsInNoFactSourceAreCountedApart(_ format: String) async throws {
    let folder = try await DryRunCommandTests.generated(20)
    var lines = try String(contentsOfFile: folder + "/requests.jsonl", encoding: .utf8)
      .split(separator: "\n").map(String.init)
    for index in [2, 6] {
      lines[index] = lines[index].replacingOccurrences(
        of: #""transactionId":"[0-9]+""#, with: #""transactionId":"999\#(index)""#,
        options: .regularExpression)
    }
    let requests = folder + "/unknown.jsonl"
    try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: requests))
    let run = try await ReckonBinary.run([
      "dry-run", "--config", folder + "/reckon.json", "--policy", "policies/targeted.policy",
      "--requests", requests, "--format", format,
    ])
    #expect(run.status == 0, "\(run.standardError)")
    if format == "text" {
      #expect(
        run.standardOutput.contains(
          "no facts found for 2 requests (their transactions are in no fact source)"),
        "\(run.standardOutput)")
    } else {
      let object = try #require(
        try JSONSerialization.jsonObject(with: Data(run.standardOutput.utf8)) as? [String: Any])
      #expect((object["summary"] as? [String: Any])?["withoutFacts"] as? Int == 2)
    }
  }
}
