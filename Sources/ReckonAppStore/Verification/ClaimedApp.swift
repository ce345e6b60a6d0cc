/// The app a notification payload says it is for, before it is checked against the configured
/// apps: read from whichever of `data`, `summary`, `externalPurchaseToken`, `appData` or
/// `unclaimInfo` the payload carries, in that order (Apple's libraries' order; Apple sends one).
struct ClaimedApp: Hashable, Sendable {
  /// The bundle identifier.
  let bundleId: String?
  /// The App Apple ID.
  let appAppleId: Int64?
  /// The environment as Apple wrote it (derived from the token for an external purchase token).
  let environment: String?

  /// The app `payload` names; nil when it carries none of the five.
  init?(_ payload: ResponseBodyV2DecodedPayload) {
    if let data = payload.data {
      self.init(data.bundleId, data.appAppleId, data.rawEnvironment)
    } else if let summary = payload.summary {
      self.init(summary.bundleId, summary.appAppleId, summary.rawEnvironment)
    } else if let token = payload.externalPurchaseToken {
      self.init(token.bundleId, token.appAppleId, token.environment?.rawValue)
    } else if let appData = payload.appData {
      self.init(appData.bundleId, appData.appAppleId, appData.rawEnvironment)
    } else if let unclaim = payload.unclaimInfo {
      self.init(unclaim.bundleId, unclaim.appAppleId, unclaim.rawEnvironment)
    } else {
      return nil
    }
  }

  private init(_ bundleId: String?, _ appAppleId: Int64?, _ environment: String?) {
    self.bundleId = bundleId
    self.appAppleId = appAppleId
    self.environment = environment
  }
}
