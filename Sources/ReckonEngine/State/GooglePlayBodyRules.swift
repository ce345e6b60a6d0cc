import Foundation
import ReckonGooglePlay
import ReckonState

/// Google Play's rules for an `orders.reviewrefund` body, as the state checks every body
/// against before it is queued.
public struct GooglePlayBodyRules: BodyRules {
  /// The rules.
  public init() {}

  /// Why `body` breaks one of Google's rules, or nil; the context is not read (Google's rules
  /// do not depend on the purchase).
  public func violation(of body: Data, context: BodyContext) -> String? {
    switch ValidatedReviewRefund.revalidated(from: body) {
    case .success?: nil
    case .failure(let rejection)?: rejection.description
    case nil: "the body is not a Google Play review answer"
    }
  }
}

extension CheckedBody {
  /// `body` checked against Google Play's rules.
  public init(googlePlay body: Data) throws(StateError) {
    try self.init(body, context: BodyContext(), rules: GooglePlayBodyRules())
  }
}
