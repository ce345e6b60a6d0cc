import Foundation
import ReckonAppStore
import ReckonState
import ReckonStateSQLite
import ReckonSupport
import ReckonTestSupport
import Testing

@testable import ReckonEngine

/// One sender at Apple's 50 a second, on the wall clock against the stand-in: no second of the
/// stand-in's log, however aligned, holds more than 50 replies, and the pace stays within its
/// jitter allowance of the limit.
struct PacingWindowTests {
  @Test func noSecondOfTheStoresLogHoldsMoreThanTheRate() async throws {
    let (standIn, url) = try TestKey.standIn()
    defer { standIn.shutdown() }
    let store = try StateSamples.store()
    for index in 0..<150 {
      _ = try StateSamples.enqueued(in: store, transaction: "6\(index)", at: Date())
    }
    let json =
      #"{"apps":[{"bundleId":"com.example","appAppleId":1,"policy":"p"}],"sender":{"productionRequestsPerSecond":50}}"#
    let configuration = try ReckonConfiguration(
      ConfigurationReader(try JSONValue.parse(Data(json.utf8)).objectValue ?? [:], path: ""),
      baseDirectory: "/tmp")
    let sender = OutboxSender(
      store: store, sender: try TestKey.client(url), configuration: configuration.sender,
      consentCheck: nil)
    let summary = try await sender.drainDue()
    #expect(summary.sent == 150)
    let times = standIn.requests.map(\.receivedAt).sorted()
    #expect(busiestSecond(times) <= 50, "\(busiestSecond(times)) replies within one second")
    let rate = Double(times.count - 1) / times.last!.timeIntervalSince(times[0])
    #expect(rate > 45 && rate <= 50, "\(rate) a second")
  }
}
