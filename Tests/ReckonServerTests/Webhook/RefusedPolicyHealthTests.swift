import Foundation
import ReckonEngine
import ReckonServer
import ReckonTestSupport
import Testing

/// A policy edit that is refused (it does not check, or it would answer no request of some
/// kind) leaves the previous version deciding, and `/healthz` and `/metrics` say so until the
/// file is fixed.
struct RefusedPolicyHealthTests {
  @Test func aRefusedEditIsDegradedHealthAndAMetricUntilFixed() async throws {
    let path = TestScratch.folder.appendingPathComponent("health-\(UUID()).policy").path
    try ServerFixture.policy.write(toFile: path, atomically: true, encoding: .utf8)
    let fixture = try ServerFixture(policy: .file(path))
    let (before, healthy) = try await fixture.get("/healthz")

    try "policy \"e2e\"\notherwise refund GRANT_PRORATED\n".write(
      toFile: path, atomically: true, encoding: .utf8)
    fixture.server.reloadPolicies()
    let (degraded, degradedBody) = try await fixture.get("/healthz")
    let (_, metrics) = try await fixture.get("/metrics")

    try ServerFixture.policy.write(toFile: path, atomically: true, encoding: .utf8)
    fixture.server.reloadPolicies()
    let (after, mended) = try await fixture.get("/healthz")
    let (_, mendedMetrics) = try await fixture.get("/metrics")
    await fixture.stop()

    #expect(before == 200)
    #expect(healthy.hasPrefix(#"{"status":"ok","state":"ok""#), "\(healthy)")
    #expect(degraded == 200)
    #expect(degradedBody.hasPrefix(#"{"status":"degraded","state":"ok""#), "\(degradedBody)")
    #expect(degradedBody.contains(#""policies":"refused","refusedPolicies":[{"path":"\#(path)""#))
    #expect(degradedBody.contains("would get a reply"), "\(degradedBody)")
    #expect(metrics.contains(#"reckon_policy_refused{path="\#(path)"} 1"#), "\(metrics)")
    #expect(after == 200)
    #expect(mended.hasPrefix(#"{"status":"ok""#) && !mended.contains("refused"), "\(mended)")
    #expect(mendedMetrics.contains(#"reckon_policy_refused{path="\#(path)"} 0"#))
    #expect(fixture.logLines.all.contains { $0.contains(#""event":"policy_refused""#) })
  }
}
