import Foundation

/// One use of a purchase the app recorded: the evidence a store may take with an answer
/// (Google Play's `consumptionUsageEvents`). Every part is optional.
public struct UsageEvent: Hashable, Sendable {
  /// When it was used.
  public var time: Date?
  /// The address it was used from.
  public var ipAddress: String?
  /// The CLDR region code of where it was used (`US`).
  public var regionCode: String?
  /// The state, province or prefecture.
  public var administrativeArea: String?
  /// The city or town.
  public var locality: String?
  /// What was used, in the app's words.
  public var description: String?
  /// The app's obfuscated id of the account that used it.
  public var accountId: String?
  /// The app's obfuscated id of the profile that used it.
  public var profileId: String?

  /// An event.
  public init(
    time: Date? = nil, ipAddress: String? = nil, regionCode: String? = nil,
    administrativeArea: String? = nil, locality: String? = nil, description: String? = nil,
    accountId: String? = nil, profileId: String? = nil
  ) {
    self.time = time
    self.ipAddress = ipAddress
    self.regionCode = regionCode
    self.administrativeArea = administrativeArea
    self.locality = locality
    self.description = description
    self.accountId = accountId
    self.profileId = profileId
  }
}

/// Where the uses of a purchase come from: a fact source that also lists events (the SQLite
/// source with a `usageEventsQuery`), or an embedder's own.
public protocol UsageEventSource: Sendable {
  /// The source's name, for provenance and failures.
  var name: String { get }
  /// The recorded uses of the purchase with these keys, most recent first.
  func usageEvents(for keys: RequestKeys) async throws -> [UsageEvent]
}
