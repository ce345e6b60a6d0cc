import Foundation
import ReckonAppStore
import ReckonEngine
import ReckonGooglePlay
import ReckonState
import ReckonSupport

/// The `policy: rule` names of a report's groups, made once per rule rather than per request:
/// a million requests share a few rules, and most come after one of the same rule.
struct RuleKeys {
  private var last: (policy: String, rule: String, key: String)?
  private var keys: [String: [String: String]] = [:]

  mutating func key(_ decision: DecidedOutcome) -> String {
    if let last, last.rule == decision.rule, last.policy == decision.policyName { return last.key }
    let key =
      keys[decision.policyName]?[decision.rule] ?? "\(decision.policyName): \(decision.rule)"
    keys[decision.policyName, default: [:]][decision.rule] = key
    last = (decision.policyName, decision.rule, key)
    return key
  }
}

/// One decided (or imported) request as the outcomes report counts it: the groups it falls in
/// and what the store did afterwards, read once.
struct ReportedRequest {
  let receivedAt: Date
  let imported: Bool
  /// Whether it is a Google Play review, whose outcomes mean something else (see `Counts`).
  let googlePlay: Bool
  let preference: String
  let rule: String
  let reason: String
  let productType: String
  let price: Int64?
  let currency: String?
  let refunded: Bool
  let declined: Bool
  let reversed: Bool
  let seats: Bool
  let prorated: Bool
  let revocationPercentage: Int?

  init(_ decision: DecidedOutcome, rules: inout RuleKeys) {
    receivedAt = decision.receivedAt
    imported = decision.action == DecidedOutcome.imported
    preference = Self.preference(decision)
    rule = imported ? OutcomeReport.importedHistory : rules.key(decision)
    let summary = decision.summary ?? Self.summary(decision.rawNotification)
    googlePlay =
      decision.environment == GooglePlayStore.environment
      || summary.productType == RequestSummary.productTypeGooglePlay
    reason = summary.reason ?? "none"
    productType = summary.productType ?? "unknown"
    price = summary.price
    currency = summary.currency
    refunded = decision.outcomes.contains(.refund)
    declined = !refunded && decision.outcomes.contains(.refundDeclined)
    reversed = refunded && decision.outcomes.contains(.refundReversed)
    seats = !refunded && !declined && decision.outcomes.contains(.seatsRefunded)
    prorated = decision.revocationType == "REFUND_PRORATED"
    revocationPercentage = decision.revocationPercentage
  }

  /// What a request recorded without a summary says of itself, read from its notification.
  private static func summary(_ raw: Data) -> RequestSummary {
    if let request = try? StoredRequestDecoder.request(raw, receivedAt: Date(), id: 0) {
      return .appStore(request.notification, transaction: request.transaction)
    }
    // A Google Play review is recorded as Google wrote it: its reason is Google's, and it
    // names no product type.
    if let notification = try? DeveloperNotification(data: raw),
      case .pendingRefundReview = notification.kind
    {
      return .googlePlay(notification)
    }
    return RequestSummary()
  }

  private static func preference(_ decision: DecidedOutcome) -> String {
    guard decision.action != DecidedOutcome.imported else { return OutcomeReport.importedHistory }
    guard decision.action != "skip" else { return "not sent (skip)" }
    switch decision.outboxState {
    case "sent"?:
      // The body as sent, not as decided: `reckon queue set` may have changed the preference.
      guard let body = decision.sentBody else { return "none" }
      return Self.refundPreference(body) ?? "none"
    case "expired"?, "failed"?, "dropped"?: return OutcomeReport.notSent
    case nil: return "not sent (never queued)"
    default: return OutcomeReport.notSentYet
    }
  }

  /// The body's `refundPreference`; the body is parsed whole only when it names the key some
  /// other way than Reckon writes it, as a million bodies parsed cost seconds.
  static func refundPreference(_ body: Data) -> String? {
    let key = Array(#""refundPreference""#.utf8)
    let quick: String?? = body.withUnsafeBytes { raw in
      let bytes = raw.bindMemory(to: UInt8.self)
      guard let at = firstIndex(of: key, in: bytes) else { return .some(nil) }
      let start = at + key.count + 2
      guard start <= bytes.count, bytes[at + key.count] == 0x3A, bytes[at + key.count + 1] == 0x22,
        let end = bytes[start...].firstIndex(where: { $0 == 0x22 || $0 == 0x5C }),
        bytes[end] == 0x22
      else { return nil }
      return .some(String(decoding: bytes[start..<end], as: UTF8.self))
    }
    if let quick { return quick }
    return (try? JSONValue.parse(body))?.objectValue?["refundPreference"]?.stringValue
  }

  private static func firstIndex(of key: [UInt8], in bytes: UnsafeBufferPointer<UInt8>) -> Int? {
    guard bytes.count >= key.count else { return nil }
    for index in 0...(bytes.count - key.count)
    where bytes[index] == key[0] && key.indices.allSatisfy({ bytes[index + $0] == key[$0] }) {
      return index
    }
    return nil
  }
}
