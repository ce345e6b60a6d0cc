import Foundation
import ReckonEngine
import ReckonServer
import ReckonState
import Testing

/// /metrics labels notification types by the stores' own names only: anyone who can POST can send a
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

  /// Google Play's notifications are counted by their kind, as Apple's are, so reviews,
  /// voided purchases and tests can be told apart.
  @Test func aGooglePlayTypeIsCountedByItsName() {
    let metrics = ReckonMetrics()
    for type in ["PENDING_REFUND_REVIEW", "VOIDED_PURCHASE", "SUBSCRIPTION"] {
      metrics.record(.answered(type: type, verdict: .acknowledged, status: 200, detail: nil))
    }
    let text = metrics.render(state: StateGauges())
    for type in ["PENDING_REFUND_REVIEW", "VOIDED_PURCHASE", "SUBSCRIPTION"] {
      #expect(text.contains(#"type="\#(type)",verdict="acknowledged",status="200"} 1"#), "\(text)")
    }
    #expect(!text.contains(#"type="other""#))
  }
}
