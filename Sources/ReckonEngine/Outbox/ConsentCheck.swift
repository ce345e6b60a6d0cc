import ReckonState

/// Reads the customer's consent again just before an older decision's reply goes out (a held
/// reply released hours later, a retry after an outage): consent can be withdrawn after the
/// decision, and no reply is sent without it. `GatheredConsentCheck` asks the fact sources.
public protocol ConsentCheck: Sendable {
  /// Whether the customer of `entry`'s request consents now.
  func consent(for entry: OutboxEntry) async -> ConsentCheckResult
}
