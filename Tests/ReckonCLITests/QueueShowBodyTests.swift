import Foundation
import Testing

/// `reckon queue show` prints the body the outbox holds: its exact bytes as text, and a stable
/// JSON value with `--format json`.
struct QueueShowBodyTests {
  /// Keys out of order and spaces after the colons: a re-encoded body could never match it.
  static let unusualBody =
    #"{"sampleContentProvided": true, "deliveryStatus": "DELIVERED", "customerConsented": true, "consumptionPercentage": 25000}"#

  @Test func showPrintsTheStoredBodyBytesExactly() async throws {
    let fixture = try QueueFixture(body: Self.unusualBody)
    let run = try await fixture.queue(["show", "2"])
    #expect(run.status == 0, "\(run.standardError)")
    #expect(run.standardOutput.contains("\nbody: \(Self.unusualBody)\n"), "\(run.standardOutput)")
  }

  @Test func showAsJSONGivesTheBodyAsAValueWithSortedKeysEveryRun() async throws {
    let fixture = try QueueFixture(body: Self.unusualBody)
    var outputs: Set<String> = []
    for _ in 0..<4 {
      let run = try await fixture.queue(["show", "2", "--format", "json"])
      #expect(run.status == 0, "\(run.standardError)")
      outputs.insert(run.standardOutput)
    }
    #expect(outputs.count == 1, "\(outputs)")
    let output = try #require(outputs.first)
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any])
    let body = try #require(object["body"] as? [String: Any])
    #expect(body["consumptionPercentage"] as? Int == 25_000)
    let keys = [
      "consumptionPercentage", "customerConsented", "deliveryStatus", "sampleContentProvided",
    ]
    let positions = keys.compactMap { output.range(of: "\"\($0)\"")?.lowerBound }
    #expect(positions.count == keys.count && positions == positions.sorted(), "\(output)")
  }
}
