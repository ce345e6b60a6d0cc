import Foundation
import ReckonEngine
import ReckonState
import ReckonStatePostgres
import ReckonTestSupport
import Testing

/// A sender on PostgreSQL sends a reply another instance enqueued at once, told by `NOTIFY`,
/// not at its next poll.
@Suite(.enabled(if: TestPostgres.isAvailable, "needs a PostgreSQL server (see TestPostgres)"))
struct ListenWakeTests {
  @Test func aReplyEnqueuedElsewhereIsSentWithoutWaitingForThePoll() async throws {
    let url = try TestPostgres.freshDatabase()
    let (standIn, standInURL) = try TestKey.standIn()
    defer { standIn.shutdown() }
    let sending = try PostgresStateStore(address: PostgresAddress(url: url), rules: .appStore)
    let sender = OutboxSender(
      store: sending, sender: try TestKey.client(standInURL),
      configuration: try SenderSettings.fast(sandboxPerSecond: 100), consentCheck: nil)
    let stop = Flag()
    let run = Task {
      try await sender.run(pollInterval: 0.1, listeningPollInterval: 60) { stop.isSet }
    }
    // The listener connects and the first (empty) drain passes.
    try await Task.sleep(nanoseconds: 500_000_000)
    let other = try PostgresStateStore(address: PostgresAddress(url: url), rules: .appStore)
    let enqueued = Date()
    // Whatever the stand-in answers, the send reaching it is what is timed.
    _ = try StateSamples.enqueued(in: other, at: Date())
    let sent = await ServerFixture.eventually(within: 10) { !standIn.requests.isEmpty }
    let waited = Date().timeIntervalSince(enqueued)
    stop.set()
    _ = try? await run.value
    #expect(sent)
    #expect(waited < 5, "sent \(waited) s after the enqueue, polling every 60 s")
  }
}
