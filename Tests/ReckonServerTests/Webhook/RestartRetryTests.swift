import Foundation
import ReckonEngine
import ReckonFacts
import ReckonPolicy
import ReckonTestSupport
import Testing

@testable import ReckonStateSQLite

/// A restart is how a fixed fact source goes live, so the requests waiting out a failed retry's
/// delay are tried as the service starts, not up to ten minutes later.
struct RestartRetryTests {
  struct Down: FactSource {
    struct Failure: Error {}
    let name = "app-db"
    func facts(for keys: RequestKeys) async throws -> [String: Value] { throw Failure() }
  }

  @Test func aRestartTriesAtOnceARequestWaitingOutARetrysDelay() async throws {
    let statePath = TestScratch.folder.appendingPathComponent("restart-\(UUID()).sqlite").path
    let down = try ServerFixture(facts: Down(), statePath: statePath)
    #expect(try await down.post(try down.body()).0 == 200)
    _ = await down.service.retryUndecided(olderThan: 0)
    await down.stop()
    let waiting = try SQLiteStateStore(path: statePath, rules: .appStore).undecidedRequests(
      before: .distantFuture, now: Date())
    #expect(waiting.isEmpty, "the failed retry waits a minute")

    let fixed = try ServerFixture(statePath: statePath, authority: down.authority)
    let decided = await ServerFixture.eventually {
      fixed.logLines.all.contains { $0.contains(#""event":"decided""#) }
    }
    await fixed.stop()
    #expect(decided, "\(fixed.logLines.all)")
  }
}
