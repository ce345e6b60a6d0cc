import Foundation
import Testing

@testable import ReckonServer

/// A shutdown that comes while `start()` is still setting the loops going stops them all the
/// same: a SIGTERM during start-up must not leave loops running past the grace period.
struct ShutdownDuringStartTests {
  @Test func loopsStartedAfterAShutdownAreStoppedAtOnce() async throws {
    let fixture = try ServerFixture(start: false)
    // The shutdown is over before `start()` makes the loops' task: the order the race gives
    // when the signal wins, made certain.
    await ServerFixture.offPool { fixture.server.shutdown(timeout: 1) }
    try fixture.server.start(intervals: ServerFixture.intervals)
    let ended = await withCheckedContinuation { continuation in
      DispatchQueue.global().async {
        continuation.resume(returning: fixture.server.loopsHaveEnded(within: 5))
      }
    }
    #expect(ended, "the loops ran on after the shutdown")
    await fixture.stop()
  }
}
