import Foundation
import ReckonAppStore

/// How the sender paces and retries replies.
public struct SenderConfiguration: Hashable, Sendable {
  /// Requests per second per app in Production (Apple allows 50).
  public var productionRequestsPerSecond: Double
  /// Requests per second per app in Sandbox (a tenth of Production).
  public var sandboxRequestsPerSecond: Double
  /// How long before the deadline a held decision is sent as decided.
  public var holdReleaseBeforeDeadlineSeconds: Double
  /// The first retry delay after a 5xx or network error; it doubles each time, with jitter.
  public var initialBackoffSeconds: Double
  /// The longest retry delay.
  public var maximumBackoffSeconds: Double
  /// Sends in flight at once. Each waits for Apple's answer, so this bounds the rate as much as
  /// the pacing does: at 150 ms an answer, 8 sends at once reach at most about 53 a second.
  public var maximumConcurrentSends: Int
  /// How long a send may stay unanswered before it counts as one whose sender stopped (the
  /// process killed, its machine gone) and another sender makes it again, with the same body.
  public var sendLeaseSeconds: Double

  /// The range `sendLeaseSeconds` may take: longer than any answer takes, and well inside the
  /// 12 hours Apple gives.
  static let sendLeaseRange: ClosedRange<Double> = 10...3_600

  /// The most sends in flight at once a configuration may ask for.
  static let mostConcurrentSends = 256

  init(_ reader: ConfigurationReader?) throws(ConfigurationError) {
    try reader?.rejectUnknownKeys([
      "productionRequestsPerSecond", "sandboxRequestsPerSecond", "holdReleaseMinutesBeforeDeadline",
      "initialBackoffSeconds", "maximumBackoffSeconds", "maximumConcurrentSends",
      "sendLeaseSeconds",
    ])
    sendLeaseSeconds = try reader?.positiveNumber("sendLeaseSeconds", default: 300) ?? 300
    guard Self.sendLeaseRange.contains(sendLeaseSeconds) else {
      throw ConfigurationError(
        reader?.keyPath("sendLeaseSeconds") ?? "sender.sendLeaseSeconds",
        "must be from 10 to 3600: longer than Apple takes to answer, and well inside the 12 "
          + "hours Apple gives for a reply")
    }
    maximumConcurrentSends =
      try reader?.positiveWholeNumber("maximumConcurrentSends", default: 8) ?? 8
    guard maximumConcurrentSends <= Self.mostConcurrentSends else {
      throw ConfigurationError(
        reader?.keyPath("maximumConcurrentSends") ?? "sender.maximumConcurrentSends",
        "must be at most \(Self.mostConcurrentSends): each send in flight holds a connection to "
          + "Apple, and Apple allows 50 requests a second per app")
    }
    productionRequestsPerSecond =
      try reader?.positiveNumber("productionRequestsPerSecond", default: 50) ?? 50
    sandboxRequestsPerSecond =
      try reader?.positiveNumber("sandboxRequestsPerSecond", default: 5) ?? 5
    holdReleaseBeforeDeadlineSeconds =
      (try reader?.positiveNumber("holdReleaseMinutesBeforeDeadline", default: 60) ?? 60) * 60
    // A held reply goes out a fifth of the window before the deadline at the earliest; a longer
    // lead was cut to that unsaid, when the operator meant something else.
    let longestLead = AppStoreEnvironment.production.consumptionReplyWindow / 5
    guard holdReleaseBeforeDeadlineSeconds <= longestLead else {
      throw ConfigurationError(
        reader?.keyPath("holdReleaseMinutesBeforeDeadline")
          ?? "sender.holdReleaseMinutesBeforeDeadline",
        "must be at most \(Int(longestLead / 60)) (a fifth of the 12-hour reply window), so a "
          + "held reply waits for review most of the window")
    }
    initialBackoffSeconds = try reader?.positiveNumber("initialBackoffSeconds", default: 30) ?? 30
    maximumBackoffSeconds =
      try reader?.positiveNumber("maximumBackoffSeconds", default: 1_800) ?? 1_800
    guard maximumBackoffSeconds >= initialBackoffSeconds else {
      // Named at the key the operator wrote: the maximum may be the default.
      guard try reader?.optionalNumber("maximumBackoffSeconds") != nil else {
        throw ConfigurationError(
          reader?.keyPath("initialBackoffSeconds") ?? "sender.initialBackoffSeconds",
          "must be at most maximumBackoffSeconds (\(Self.plain(maximumBackoffSeconds)), the "
            + "default)")
      }
      throw ConfigurationError(
        reader?.keyPath("maximumBackoffSeconds") ?? "sender.maximumBackoffSeconds",
        "must be at least initialBackoffSeconds (\(Self.plain(initialBackoffSeconds)))")
    }
  }
}

extension SenderConfiguration {
  /// A setting as written in JSON: `1800`, `0.5`, never `1,800`.
  fileprivate static func plain(_ value: Double) -> String {
    value.rounded() == value && abs(value) < 1e15 ? String(Int(value)) : String(value)
  }
}
