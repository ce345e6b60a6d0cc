import Foundation

/// A store's rules for a reply's body, which every body is checked against before an outbox
/// entry can be made from it (see `CheckedBody`).
public protocol BodyRules: Sendable {
  /// Why `body` breaks a rule for a transaction of `context`, or nil when it breaks none.
  func violation(of body: Data, context: BodyContext) -> String?
}
