import Foundation
import ReckonAppStore
import ReckonServer
import ReckonState
import Testing

/// Accepting unsigned notifications is a development setting: while it is on, `/healthz` and
/// `/metrics` say so, so one left on in production is seen.
struct TrustSwitchTests {
  @Test func healthAndMetricsNameTheEnvironmentsAcceptedUnsigned() async throws {
    let fixture = try ServerFixture(unsignedAccepted: [.xcode, .localTesting])
    let (status, health) = try await fixture.get("/healthz")
    let (_, metrics) = try await fixture.get("/metrics")
    await fixture.stop()
    #expect(status == 200)
    #expect(health.contains(#""unsignedAccepted":["LocalTesting","Xcode"]"#), "\(health)")
    #expect(metrics.contains(#"reckon_trust_unsigned_accepted{environment="Xcode"} 1"#))
    #expect(metrics.contains(#"reckon_trust_unsigned_accepted{environment="LocalTesting"} 1"#))
  }

  @Test func withTheSwitchesOffNothingIsSaid() async throws {
    let fixture = try ServerFixture()
    let (_, health) = try await fixture.get("/healthz")
    let (_, metrics) = try await fixture.get("/metrics")
    await fixture.stop()
    #expect(!health.contains("unsignedAccepted"), "\(health)")
    #expect(metrics.contains(#"reckon_trust_unsigned_accepted{environment="Xcode"} 0"#))
    #expect(metrics.contains(#"reckon_trust_unsigned_accepted{environment="LocalTesting"} 0"#))
  }
}
