import Foundation
import ReckonHTTP
import ReckonServer
import ReckonState
import Synchronization
import Testing

/// `/healthz` and `/metrics` answer from gauges read off their request path: pollers never wait
/// for the state's counts, however slow those are, and never add reads of their own.
struct HealthCacheTests {
  /// A read of the gauges that takes `delay` seconds, counting how often it ran.
  final class SlowRead: Sendable {
    let reads = Atomic(0)
    let delay: Double
    init(delay: Double) { self.delay = delay }

    func read(_ now: Date) -> StateGauges {
      reads.add(1, ordering: .relaxed)
      Thread.sleep(forTimeInterval: delay)
      return StateGauges(outboxDepth: ["pending": 2])
    }
  }

  @Test func aReadUnderWayDoesNotHoldUpTheLastReading() async throws {
    let slow = SlowRead(delay: 0.4)
    let cache = StateGaugeCache(read: slow.read)
    cache.refresh()
    Thread.detachNewThread { cache.refresh() }
    let started = Date()
    for _ in 0..<50 { #expect(cache.current.gauges?.outboxDepth["pending"] == 2) }
    #expect(Date().timeIntervalSince(started) < 0.2)
  }

  @Test func healthAndMetricsPollsReadNothingOfTheirOwn() async throws {
    let fixture = try ServerFixture()
    defer { Task { await fixture.stop() } }
    let slow = SlowRead(delay: 0.05)
    let cache = StateGaugeCache(read: slow.read)
    cache.refresh()
    let routes = WebhookRoutes(
      service: fixture.service, webhookPath: "/apple/notifications", metrics: fixture.metrics,
      gauges: cache)
    let statuses = await withTaskGroup(of: Int.self) { group in
      for index in 0..<16 {
        let path = index.isMultiple(of: 2) ? "/healthz" : "/metrics"
        group.addTask { await routes.respond(to: HTTPRequest(method: "GET", target: path)).status }
      }
      return await group.reduce(into: [Int]()) { $0.append($1) }
    }
    #expect(statuses.allSatisfy { $0 == 200 }, "\(statuses)")
    #expect(slow.reads.load(ordering: .relaxed) == 1, "only the refresh read the state")
  }

  @Test func aReadingGoneStaleSaysTheStateStoppedAnswering() async throws {
    let fixture = try ServerFixture()
    defer { Task { await fixture.stop() } }
    let cache = StateGaugeCache(read: { _ in StateGauges() })
    cache.refresh()
    let routes = WebhookRoutes(
      service: fixture.service, webhookPath: "/apple/notifications", metrics: fixture.metrics,
      gauges: cache, staleAfter: 0.1)
    #expect(await routes.respond(to: HTTPRequest(method: "GET", target: "/healthz")).status == 200)
    try await Task.sleep(nanoseconds: 200_000_000)
    let stale = await routes.respond(to: HTTPRequest(method: "GET", target: "/healthz"))
    #expect(stale.status == 503)
    #expect(String(decoding: stale.body, as: UTF8.self).contains("unreachable"))
  }
}
