import Foundation
import Testing

/// `reckon queue retry ID`: tries a failed or pending entry again, and never releases a held one,
/// which waits for a person's review.
struct QueueRetryTests {
  @Test func retryRefusesAHeldEntryPointingToApproveAndLeavesItHeld() async throws {
    let fixture = try QueueFixture()
    let run = try await fixture.queue(["retry", "1"])
    #expect(run.status == 1)
    #expect(run.standardError.contains("reckon queue approve 1"), "\(run.standardError)")
    #expect(run.standardError.contains("reckon queue set 1"), "\(run.standardError)")
    #expect(run.standardOutput.isEmpty)
    let show = try await fixture.queue(["show", "1"]).standardOutput
    #expect(show.hasPrefix("entry 1: held since"), "\(show)")
  }

  @Test func retrySendsAPendingEntryNow() async throws {
    let fixture = try QueueFixture()
    let run = try await fixture.queue(["retry", "2"])
    #expect(run.status == 0, "\(run.standardError)")
    #expect(run.standardOutput == "entry 2: pending\n")
  }
}
