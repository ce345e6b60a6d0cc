import Foundation
import ReckonAppStore
import ReckonFacts
import ReckonGooglePlay
import ReckonState

/// Asks the fact sources for `customer.consented` again, for the request an outbox entry
/// answers, as the decision asked them: the recorded notification verified again, the same keys.
public struct GatheredConsentCheck: ConsentCheck {
  let store: any StateStore
  let verifier: NotificationVerifier
  let gatherer: FactGatherer
  let googlePlayGatherer: FactGatherer?

  /// A check reading requests from `store`, verifying them with `verifier` and asking `gatherer`;
  /// Google Play reviews (recorded once verified) are asked of `googlePlayGatherer`.
  public init(
    store: any StateStore, verifier: NotificationVerifier, gatherer: FactGatherer,
    googlePlayGatherer: FactGatherer? = nil
  ) {
    self.store = store
    self.verifier = verifier
    self.gatherer = gatherer
    self.googlePlayGatherer = googlePlayGatherer
  }

  /// Whether the customer of `entry`'s request consents now.
  public func consent(for entry: OutboxEntry) async -> ConsentCheckResult {
    let recorded: RecordedNotification?
    do { recorded = try store.recordedNotification(requestId: entry.requestId) } catch {
      return .unknown("the request could not be read: \(error.description)")
    }
    guard let recorded else {
      return .notGiven("request \(entry.requestId) is not in the state database")
    }
    if entry.isGooglePlay {
      guard let notification = try? DeveloperNotification(data: recorded.rawNotification),
        let request = GooglePlayReviewRequest(notification, receivedAt: recorded.receivedAt)
      else { return .notGiven("the recorded review cannot be read") }
      return await consent(request, gatherer: googlePlayGatherer ?? gatherer)
    }
    let verified: VerifiedNotification
    // It verified when it arrived: failing now means the trust settings changed (a new root, an
    // app's settings), which an operator can put right before the deadline. Consent stays
    // unread, so the reply waits rather than failing for good as if the customer had said no.
    do { verified = try verifier.verify(body: recorded.rawNotification) } catch {
      return .unknown(
        "the recorded request no longer verifies with the trust settings in use: \(error.description)"
      )
    }
    guard let request = RefundRequest(verified, receivedAt: recorded.receivedAt) else {
      return .notGiven("the request has no transaction")
    }
    return await consent(request, gatherer: gatherer)
  }

  private func consent(_ request: some ReplyRequest, gatherer: FactGatherer) async
    -> ConsentCheckResult
  {
    switch await gatherer.gather(request, reading: ["customer.consented"]) {
    case .retry(let failure):
      return .unknown("customer.consented could not be read: \(failure.description)")
    case .ready(let facts):
      guard case .boolean(true) = facts.values["customer.consented"] else {
        let now = facts.values["customer.consented"].map { $0.formatted(as: .boolean) } ?? "missing"
        return .notGiven("customer.consented is now \(now)")
      }
      return .given
    }
  }
}
