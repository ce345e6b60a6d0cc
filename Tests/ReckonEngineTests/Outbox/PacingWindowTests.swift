import Foundation
import ReckonAppStore
import ReckonState
import ReckonStateSQLite
import ReckonTestSupport
import Testing

@testable import ReckonEngine

/// One sender at Apple's 50 a second, on the wall clock against the stand-in: no second,
/// however aligned, holds more than 50 of its sends.
struct PacingWindowTests {
  @Test func noSecondHoldsMoreSendsThanTheRate() async throws {
    let (standIn, url) = try TestKey.standIn()
    defer { standIn.shutdown() }
    let store = try StateSamples.store()
    for index in 0..<150 {
      _ = try StateSamples.enqueued(in: store, transaction: "6\(index)", at: Date())
    }
    let sender = OutboxSender(
      store: store, sender: try TestKey.client(url),
      configuration: try SenderSettings.production(perSecond: 50),
      consentCheck: nil)
    let summary = try await sender.drainDue()
    #expect(summary.sent == 150)
    // The sends' starts, as the sender recorded them, are what it keeps to the rate. The
    // stand-in's own log adds the time its threads take to read each request, which on a
    // machine busy with other tests is noise of the harness, not of the sender: it is shown.
    let starts = try store.entries(states: []).flatMap { try store.attempts(entryId: $0.id) }
      .map(\.startedAt).sorted()
    #expect(busiestSecond(starts) <= 50, "\(busiestSecond(starts)) sends began within one second")
    let rate = Double(starts.count - 1) / starts.last!.timeIntervalSince(starts[0])
    // Well under the limit only if the pace loses time (45.5 a second on an idle
    // machine, the limit less the jitter allowance).
    #expect(rate <= 50 && rate > 25, "\(rate) a second")
    print(
      "pacing at 50/s: \(String(format: "%.1f", rate))/s, busiest second of starts "
        + "\(busiestSecond(starts)), of the stand-in's log \(busiestSecond(standIn.requests.map(\.receivedAt)))"
    )
  }
}
