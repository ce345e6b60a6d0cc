import Foundation
import ReckonState
import Testing

@testable import ReckonStateSQLite

/// The outbox table keeps a body's context in columns of its own: every value they hold comes
/// back as it went in, and one they cannot hold is refused rather than lost.
struct OutboxContextColumnsTests {
  @Test(arguments: [
    [:],
    ["productType": "Consumable", "ownershipType": "PURCHASED"],
    ["productType": "Non-Consumable", "advancedCommerce": "true"],
  ])
  func aContextTheColumnsHoldComesBackAsItWentIn(values: [String: String]) throws {
    let context = BodyContext(values)
    #expect(try OutboxContextColumns(context).context == context)
  }

  @Test func aContextValueWithNoColumnIsRefusedNamingIt() {
    #expect(
      throws: StateError.invalidBody(
        "the SQLite state has no column for the body context value giftedBy")
    ) {
      try OutboxContextColumns(BodyContext(["productType": "Consumable", "giftedBy": "x"]))
    }
  }

  @Test func ofSeveralValuesWithNoColumnTheFirstByNameIsNamed() {
    #expect(
      throws: StateError.invalidBody(
        "the SQLite state has no column for the body context value alpha")
    ) {
      try OutboxContextColumns(
        BodyContext(["zeta": "1", "productType": "Consumable", "giftedBy": "x", "alpha": "y"]))
    }
  }
}
