import Foundation
import ReckonEngine
import ReckonServer
import ReckonState
import Testing

/// /metrics labels notification types by Apple's names only: anyone who can POST can send a
/// payload naming any type (an unsigned Xcode one, a refused one), and each distinct label would
/// be a new series kept for the life of the process.
struct MetricsLabelTests {
  @Test func aTypeAppleDoesNotDefineIsCountedAsOther() {
    let metrics = ReckonMetrics()
    for made in ["X1", "X2", "X3"] {
      metrics.record(.answered(type: made, verdict: .refused, status: 403, detail: nil))
    }
    metrics.record(
      .answered(type: "CONSUMPTION_REQUEST", verdict: .refused, status: 403, detail: nil))
    metrics.record(.answered(type: nil, verdict: .refused, status: 400, detail: nil))
    let text = metrics.render(state: StateGauges())
    #expect(text.contains(#"type="other",verdict="refused",status="403"} 3"#), "\(text)")
    #expect(text.contains(#"type="CONSUMPTION_REQUEST",verdict="refused",status="403"} 1"#))
    #expect(text.contains(#"type="unknown",verdict="refused",status="400"} 1"#))
    #expect(!text.contains("X1"))
  }
}
