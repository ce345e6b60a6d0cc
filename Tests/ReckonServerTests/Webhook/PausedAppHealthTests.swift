import Foundation
import ReckonEngine
import ReckonServer
import ReckonState
import ReckonTestSupport
import Testing

/// A pause after a credentials problem holds an app's replies back wherever it was met: every
/// instance's `/healthz` and `/metrics` read it from the state, though the due lag does not show
/// it (the pause moves the replies later).
struct PausedAppHealthTests {
  @Test func aPausedAppIsDegradedHealthAndAGaugeWhileThePauseLasts() async throws {
    let fixture = try ServerFixture()
    let app = AppKey(bundleId: "com.example.coins", environment: "Production")
    try fixture.service.store.pause(app, until: Date().addingTimeInterval(300), reason: "HTTP 401")
    // The gauges are read off the request path, every second or so.
    var (status, health) = try await fixture.get("/healthz")
    for _ in 0..<50 where !health.contains("pausedApps") {
      try await Task.sleep(for: .milliseconds(100))
      (status, health) = try await fixture.get("/healthz")
    }
    let (_, metrics) = try await fixture.get("/metrics")
    await fixture.stop()
    #expect(status == 200)
    #expect(health.hasPrefix(#"{"status":"degraded","state":"ok""#), "\(health)")
    #expect(
      health.contains(#""sending":"paused","pausedApps":["com.example.coins (Production)"]"#),
      "\(health)")
    #expect(metrics.contains("reckon_apps_paused 1\n"), "\(metrics)")
  }
}
