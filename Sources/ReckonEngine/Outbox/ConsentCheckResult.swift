/// What a `ConsentCheck` found.
public enum ConsentCheckResult: Hashable, Sendable {
  /// `customer.consented` is still true: the reply may go.
  case given
  /// `customer.consented` is now false or missing, or the request is not recorded: the reply
  /// must never go.
  case notGiven(String)
  /// Consent could not be read now (a fact source failed, or the recorded request does not
  /// verify with the trust settings now in use): the reply waits and is tried again.
  case unknown(String)
}
