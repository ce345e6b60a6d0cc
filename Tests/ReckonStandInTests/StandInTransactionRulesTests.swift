import Foundation
import ReckonAppStore
import ReckonStandIn
import ReckonTestSupport
import Testing

/// The stand-in holds a registered transaction's bodies to the rules that depend on its product
/// type, as Apple does, so a test cannot pass on a body Apple would answer with 400.
struct StandInTransactionRulesTests {
  static let withPercentage = Data(
    #"{"consumptionPercentage":50000,"customerConsented":true,"deliveryStatus":"DELIVERED","sampleContentProvided":false}"#
      .utf8)

  @Test func aPercentageForARegisteredAutoRenewableIsRefusedAsAppleRefusesIt() async throws {
    let (standIn, url) = try TestKey.standIn()
    defer { standIn.shutdown() }
    standIn.register("7001", ConsumptionValidationContext(productType: .autoRenewable))
    // Checked here without the product type, so only the stand-in can catch it.
    let body = try ValidatedConsumptionBody(validating: Self.withPercentage, context: .init())
    let app = AppStoreApp(bundleId: TestKey.bundleId, environment: .production)
    let client = try TestKey.client(url)

    let refused = await client.send(body, transactionId: "7001", app: app)
    guard case .answered(let answer) = refused else {
      Issue.record("no answer: \(refused)")
      return
    }
    #expect(answer.status == 400)
    #expect(
      standIn.requests.last?.problem == "ConsumptionPercentageAutoRenewableSubscriptionError")

    let unregistered = await client.send(body, transactionId: "7002", app: app)
    guard case .answered(let accepted) = unregistered else {
      Issue.record("no answer: \(unregistered)")
      return
    }
    #expect(accepted.status == 202)
  }
}

extension StandInTransactionRulesTests {
  static let valid = Data(
    #"{"customerConsented":true,"deliveryStatus":"DELIVERED","sampleContentProvided":false,"refundPreference":"DECLINE"}"#
      .utf8)

  /// Apple answers any reply for a family-shared or assigned purchase with its own error, so the
  /// stand-in does too: a test that let one through would not pass.
  @Test(arguments: [
    (InAppOwnershipType.assigned, 4_000_227, "InvalidAssignedTransactionNotSupportedError"),
    (.familyShared, 4_000_185, "FamilyTransactionNotSupportedError"),
  ])
  func aPurchaseAppleTakesNoReplyForIsAnsweredWithApplesError(
    ownership: InAppOwnershipType, code: Int, name: String
  ) async throws {
    let (standIn, url) = try TestKey.standIn()
    defer { standIn.shutdown() }
    standIn.register("7101", ConsumptionValidationContext(ownershipType: ownership))
    let body = try ValidatedConsumptionBody(validating: Self.valid, context: .init())
    let app = AppStoreApp(bundleId: TestKey.bundleId, environment: .production)
    let result = try await TestKey.client(url).send(body, transactionId: "7101", app: app)
    guard case .answered(let answer) = result else {
      Issue.record("no answer: \(result)")
      return
    }
    #expect(answer.status == 400)
    #expect(answer.error?.errorCode == code)
    #expect(answer.error?.code.rawCode == code)
    #expect(standIn.requests.last?.problem == name)
  }
}
