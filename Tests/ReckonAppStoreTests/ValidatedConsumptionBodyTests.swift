import Foundation
import ReckonAppStore
import Testing

/// The bytes a sender is given go to Apple unchanged, so beyond Apple's rules they must be a
/// body as Reckon writes one: nothing Apple might read otherwise than Reckon did.
@Suite struct ValidatedConsumptionBodyTests {
  static let valid =
    #"{"customerConsented":true,"deliveryStatus":"DELIVERED","sampleContentProvided":false,"consumptionPercentage":50000,"refundPreference":"DECLINE"}"#

  @Test func aBodyAsReckonWritesItIsTakenUnchanged() throws {
    let body = try ValidatedConsumptionBody(validating: Data(Self.valid.utf8), context: .init())
    #expect(body.data == Data(Self.valid.utf8))
  }

  @Test(arguments: [
    (
      #"{"customerConsented":true,"deliveryStatus":"DELIVERED","sampleContentProvided":false,"note":"x"}"#,
      "the body is not one Reckon would send: 'note' is none of the body's fields"
    ),
    (
      #"{"customerConsented":true,"deliveryStatus":"DELIVERED","sampleContentProvided":false,"consumptionPercentage":5e4}"#,
      "the body is not one Reckon would send: consumptionPercentage must be written as a whole number of milliunits"
    ),
    (
      #"{"customerConsented":true,"deliveryStatus":"DELIVERED","sampleContentProvided":false,"consumptionPercentage":50000.0}"#,
      "the body is not one Reckon would send: consumptionPercentage must be written as a whole number of milliunits"
    ),
  ])
  func aBodyWithinApplesRulesButUnlikeReckonsIsRefused(body: String, reason: String) {
    #expect(ConsumptionRequestValidator.validate(body: Data(body.utf8)).isEmpty)
    #expect {
      _ = try ValidatedConsumptionBody(validating: Data(body.utf8), context: .init())
    } throws: { error in
      "\(error)" == reason
    }
  }
}
