import ReckonGooglePlay

/// What a dry-run keeps of a Google Play answer: the fields a policy decides. The review's
/// token and the usage events sent as evidence are left out, as no two policies differ on them.
public struct GooglePlayDryRunAnswer: Hashable, Sendable {
  /// Whether a sample of the content was provided (`sampleContentProvided`).
  public let sampleContentProvided: Bool
  /// `APPROVE`, `DECLINE` or `NEUTRAL`.
  public let refundPreference: GooglePlayRefundPreference
  /// How much of the purchase was used, 0 to 100000 (`consumptionPercentageMilliunits`).
  public let consumptionPercentageMilliunits: Int?

  /// The fields of `answer`.
  public init(_ answer: ReviewRefundRequest) {
    self.init(
      sampleContentProvided: answer.sampleContentProvided,
      refundPreference: answer.refundPreference,
      consumptionPercentageMilliunits: answer.consumptionPercentageMilliunits)
  }

  /// An answer from its fields.
  public init(
    sampleContentProvided: Bool, refundPreference: GooglePlayRefundPreference,
    consumptionPercentageMilliunits: Int?
  ) {
    self.sampleContentProvided = sampleContentProvided
    self.refundPreference = refundPreference
    self.consumptionPercentageMilliunits = consumptionPercentageMilliunits
  }

  /// The fields as Google's JSON names them, keys sorted, as JSON rows show the answer.
  public var json: String {
    var parts: [String] = []
    if let milliunits = consumptionPercentageMilliunits {
      parts.append("\"consumptionPercentageMilliunits\":\(milliunits)")
    }
    parts.append("\"refundPreference\":\"\(refundPreference.rawValue)\"")
    parts.append("\"sampleContentProvided\":\(sampleContentProvided)")
    return "{" + parts.joined(separator: ",") + "}"
  }
}
