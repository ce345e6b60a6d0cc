import Foundation
import ReckonAppStore
import ReckonStandIn
import ReckonTestSupport
import Testing

/// `reckon standin --record FILE`: each request the stand-in answered, one JSON line, after
/// whatever the file held.
struct StandInRecorderTests {
  static let body = Data(
    #"{"customerConsented":true,"deliveryStatus":"DELIVERED","sampleContentProvided":false}"#.utf8)

  @Test func requestsAreAppendedAfterWhatTheFileHeldOnALineOfTheirOwn() async throws {
    let path = TestScratch.folder.appendingPathComponent("record-\(UUID()).jsonl").path
    try Data("kept".utf8).write(to: URL(fileURLWithPath: path))
    let (standIn, url) = try TestKey.standIn()
    defer { standIn.shutdown() }
    let recorder = try StandInRecorder(path: path, standIn: standIn)
    let body = try ValidatedConsumptionBody(validating: Self.body, context: .init())
    let app = AppStoreApp(bundleId: TestKey.bundleId, environment: .production)
    _ = try await TestKey.client(url).send(body, transactionId: "8001", app: app)
    #expect(recorder.flush() == nil)
    #expect(recorder.flush() == nil)
    let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
    #expect(lines.count == 2)
    #expect(lines.first == "kept")
    let record = try #require(
      try JSONSerialization.jsonObject(with: Data(lines[1].utf8)) as? [String: Any])
    #expect(record["status"] as? Int == 202)
    #expect(record["transactionId"] as? String == "8001")
  }

  @Test func aFileThatCannotBeWrittenIsRefusedNamingIt() throws {
    let (standIn, _) = try TestKey.standIn()
    defer { standIn.shutdown() }
    let path = "/nonexistent-\(UUID())/record.jsonl"
    let error = #expect(throws: StandInRecorder.Refused.self) {
      try StandInRecorder(path: path, standIn: standIn)
    }
    #expect(error?.description == "\(path): No such file or directory")
  }
}
