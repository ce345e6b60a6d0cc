/// What a `ConsentCheck` found.
public enum ConsentCheckResult: Hashable, Sendable {
  /// `customer.consented` is still true: the reply may go.
  case given
  /// `customer.consented` is now false or missing, or the request cannot be read back: the reply
  /// must never go.
  case notGiven(String)
  /// Consent could not be read now (a fact source failed): the reply waits and is tried again.
  case unknown(String)
}
