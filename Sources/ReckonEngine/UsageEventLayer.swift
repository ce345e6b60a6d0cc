import ReckonFacts

/// A usage-event source with how long its lookup may take.
public struct UsageEventLayer: Sendable {
  /// The source.
  public let source: any UsageEventSource
  /// How long a lookup may take before the source counts as failed.
  public let timeout: Duration

  /// A layer of `source` under `timeout`.
  public init(source: any UsageEventSource, timeout: Duration = .seconds(2)) {
    self.source = source
    self.timeout = timeout
  }
}
