import ReckonSupport

/// The largest policy and facts files Reckon reads (`limits` in `reckon.json`); configuration
/// files, keys and certificates have fixed limits of their own (see `FileSizeLimit`).
public struct FileLimitsConfiguration: Hashable, Sendable {
  /// The largest policy or policy tests file (`limits.policyFileBytes`).
  public var policy: FileSizeLimit = .policy
  /// The largest JSON facts file, each of a folder's alone (`limits.factsFileBytes`).
  public var facts: FileSizeLimit = .facts

  /// The defaults: 4 MiB policies, 256 MiB facts files.
  public init() {}

  /// Reads the `limits` object, if there is one.
  public init(_ reader: ConfigurationReader?) throws(ConfigurationError) {
    guard let reader else { return }
    try reader.rejectUnknownKeys(["policyFileBytes", "factsFileBytes"])
    policy = policy.raised(
      to: try reader.positiveWholeNumber("policyFileBytes", default: policy.bytes))
    facts = facts.raised(
      to: try reader.positiveWholeNumber("factsFileBytes", default: facts.bytes))
  }
}
