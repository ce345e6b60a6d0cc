import Foundation
import ReckonEngine
import ReckonServer
import ReckonStateSQLite
import ReckonTestSupport
import Testing

/// A loop of `reckon serve` that stops on an error (the sender, say) stays stopped: the service
/// still answers 200 to Apple but sends nothing, so `/healthz` says so and a supervisor restarts
/// it.
struct StoppedLoopHealthTests {
  @Test func aSenderLoopThatStoppedFailsTheHealthCheck() async throws {
    // The lock of another state database does not keep this one's other senders away, so the
    // sender refuses to run with it.
    let lock = try SenderLock(
      statePath: TestScratch.folder.appendingPathComponent("other-\(UUID()).sqlite").path)
    defer { lock.release() }
    let fixture = try ServerFixture(senderLock: lock)
    let stopped = await ServerFixture.eventually {
      fixture.logLines.all.contains { $0.contains(#""event":"loop_failed""#) }
    }
    let (status, body) = try await fixture.get("/healthz")
    await fixture.stop()
    #expect(stopped)
    #expect(status == 503)
    #expect(body == #"{"status":"unavailable","state":"loop stopped","loops":"sender"}"#)
  }
}
