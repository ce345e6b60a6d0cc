/// A fault the Google Play stand-in plays on the next review answer that passes its checks,
/// for tests of what Reckon does when Google misbehaves.
public enum GooglePlayStandInFault: Hashable, Sendable {
  /// Answer this status without recording anything (429, 503: Google turned it away).
  case refuse(status: Int)
  /// Record the answer, then answer this status anyway (a 500 after the write).
  case recordThenFail(status: Int)
}
