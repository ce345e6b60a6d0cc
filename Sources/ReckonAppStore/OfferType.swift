/// The kind of offer a transaction or renewal used.
public enum OfferType: Int, Codable, Hashable, Sendable, CaseIterable {
  /// An introductory offer.
  case introductoryOffer = 1
  /// A promotional offer.
  case promotionalOffer = 2
  /// An offer code.
  case offerCode = 3
  /// A win-back offer.
  case winBackOffer = 4
}
