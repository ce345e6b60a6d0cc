import Foundation
import ReckonTestSupport
import Testing

/// The short version of `reckon-bench instances`, as CI runs it: every setup prints its line,
/// and the three senders keep the shared limit.
@Suite(.enabled(if: TestPostgres.isAvailable, "needs a PostgreSQL server (see TestPostgres)"))
struct InstancesBenchmarkTests {
  @Test func everySetupPrintsItsRateAndLatencyAndTheSendersTheirRate() async throws {
    let run = try await BenchmarkUsageTests.run([
      "instances", "--count", "60", "--seconds", "1", "--paced", "20", "--send", "30",
    ])
    #expect(run.status == 0, "\(run.error)")
    for setup in [
      "SQLite, 1 instance: sustained", "PostgreSQL, 1 instance: sustained",
      "PostgreSQL, 2 instances: sustained", "PostgreSQL, 3 instances: sustained",
    ] {
      #expect(run.output.contains(setup), "\(run.output)")
    }
    #expect(run.output.contains("KB per request"))
    let senders = try #require(
      run.output.split(separator: "\n").first { $0.hasPrefix("3 senders, one PostgreSQL") })
    #expect(senders.contains(": 30 sent (30 requests)"), "\(senders)")
    let busiest = senders.split(separator: "busiest second ").last?.prefix { $0.isNumber }
    #expect(Int(busiest ?? "") ?? 99 <= 50, "\(senders)")
  }
}
