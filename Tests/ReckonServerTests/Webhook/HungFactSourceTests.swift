import Foundation
import ReckonFacts
import ReckonPolicy
import ReckonServer
import Testing

/// A fact source that blocks its thread on every lookup (a client without a timeout, say)
/// cannot stall the webhook: each notification is answered within the source's timeout, kept
/// undecided until the source answers, `/healthz` says the source is hung, and the server
/// stops within its grace period.
struct HungFactSourceTests {
  /// Blocks the thread it is called on for a minute, as a source breaking the contract does.
  struct HangingSource: FactSource {
    let name = "crm"
    func facts(for keys: RequestKeys) async throws -> [String: Value] {
      usleep(60_000_000)
      return [:]
    }
  }

  @Test func notificationsAreAnsweredAndHealthSaysTheSourceIsHung() async throws {
    let fixture = try ServerFixture(facts: HangingSource(), factTimeout: .milliseconds(300))
    var slowest: Duration = .zero
    // More notifications than the pool and the source have threads.
    for index in 0..<8 {
      let body = try fixture.body(ServerFixture.notification(transaction: "20000008123\(index)"))
      let started = ContinuousClock.now
      let (status, _) = try await fixture.post(body)
      slowest = max(slowest, ContinuousClock.now - started)
      #expect(status == 200)
    }
    let (health, healthBody) = try await fixture.get("/healthz")
    let (_, metrics) = try await fixture.get("/metrics")
    let stopping = ContinuousClock.now
    await fixture.server.stop(timeout: 2)
    let stopped = ContinuousClock.now - stopping
    await fixture.stop()
    #expect(slowest < .seconds(5), "slowest answer \(slowest)")
    #expect(health == 503)
    #expect(
      healthBody == #"{"facts":"hung","sources":["crm"],"state":"ok","status":"unavailable"}"#)
    #expect(metrics.contains(#"reckon_fact_source_hung{source="crm"} 1"#))
    #expect(stopped < .seconds(4), "stopping took \(stopped)")
    #expect(try fixture.service.store.gauges(now: Date()).undecided == 8)
  }
}
