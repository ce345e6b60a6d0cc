import Foundation
import ReckonEngine
import ReckonState
import ReckonTestSupport
import Testing

/// The running server notices a changed policy file: a version that checks goes live, one that
/// does not is refused (logged with its diagnostics) and the previous one keeps deciding.
@Suite struct HotReloadTests {
  @Test func aChangedPolicyFileIsAppliedAndABrokenOneRefused() async throws {
    let path = TestScratch.folder.appendingPathComponent(
      "hot-\(UUID()).policy"
    ).path
    try ServerFixture.policy.write(toFile: path, atomically: true, encoding: .utf8)
    let fixture = try ServerFixture(policy: .file(path))
    let granting = ServerFixture.policy.replacingOccurrences(
      of: "otherwise refund DECLINE", with: "otherwise refund GRANT_FULL")
    try await Task.sleep(nanoseconds: 50_000_000)
    try granting.write(toFile: path, atomically: true, encoding: .utf8)
    let applied = await ServerFixture.eventually(within: 30) {
      fixture.logLines.all.contains { $0.contains(#""event":"policy_applied""#) }
    }
    let (_, first) = try await fixture.post(
      try fixture.body(ServerFixture.notification(transaction: "1")))

    try "policy \"broken\"\nrule \"x\" when no.such.fact then refund SOMETIMES\n".write(
      toFile: path, atomically: true, encoding: .utf8)
    let refused = await ServerFixture.eventually(within: 30) {
      fixture.logLines.all.contains { $0.contains(#""event":"policy_refused""#) }
    }
    let (status, second) = try await fixture.post(
      try fixture.body(ServerFixture.notification(transaction: "2")))
    let bodies = await ServerFixture.eventually { fixture.standIn.requests.count == 2 }
    await fixture.stop()
    #expect(applied)
    #expect(refused)
    #expect(first.contains(#""action":"respond""#))
    #expect(status == 200)
    #expect(second.contains(#""rule":"otherwise""#))
    #expect(bodies)
    #expect(
      fixture.standIn.requests.allSatisfy {
        String(decoding: $0.body, as: UTF8.self).contains("GRANT_FULL")
      })
    let refusal = fixture.logLines.all.first { $0.contains("policy_refused") } ?? ""
    #expect(refusal.contains("no.such.fact"))
    #expect(
      fixture.metrics.render(state: StateGauges()).contains(
        #"reckon_policy_reloads_total{result="refused"} 1"#))
  }
}
