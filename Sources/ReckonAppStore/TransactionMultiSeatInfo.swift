import Foundation

/// The seats of a subscription bought as a multiseat purchase: what each seat cost, and how
/// many a seat-based refund took back.
public struct TransactionMultiSeatInfo: Codable, Hashable, Sendable {
  /// The seats at each price; a transaction's `price` is then only the average per seat.
  public var priceTiers: [MultiSeatPriceTier]?
  /// Who hosts the invitations to the seats (`APPLE` or `DEVELOPER`), as Apple sent it.
  public var invitationManagement: String?
  /// How many seats a seat-based refund (a REFUND with subtype SEATS) took back; the
  /// transaction stays valid for the others.
  public var revokedSeatQuantity: Int?

  /// Creates empty seat details; set the fields you need.
  public init(
    priceTiers: [MultiSeatPriceTier]? = nil, invitationManagement: String? = nil,
    revokedSeatQuantity: Int? = nil
  ) {
    self.priceTiers = priceTiers
    self.invitationManagement = invitationManagement
    self.revokedSeatQuantity = revokedSeatQuantity
  }

  /// What the seats cost together, in milliunits of the transaction's currency; nil without
  /// tiers.
  public var totalPrice: Int64? {
    guard let priceTiers, !priceTiers.isEmpty else { return nil }
    return priceTiers.reduce(0) { $0 + ($1.tierPrice ?? 0) * Int64($1.tierQuantity ?? 0) }
  }
}

/// A price per seat and the number of seats bought at it.
public struct MultiSeatPriceTier: Codable, Hashable, Sendable {
  /// The price of one seat, in milliunits.
  public var tierPrice: Int64?
  /// The seats bought at that price.
  public var tierQuantity: Int?

  /// A tier of `tierQuantity` seats at `tierPrice` milliunits each.
  public init(tierPrice: Int64? = nil, tierQuantity: Int? = nil) {
    self.tierPrice = tierPrice
    self.tierQuantity = tierQuantity
  }
}
