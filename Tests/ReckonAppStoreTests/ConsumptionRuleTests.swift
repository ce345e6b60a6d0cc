import Foundation
import ReckonAppStore
import Testing

@Suite("Apple's 400 rules for a typed v2 body")
struct ConsumptionRuleTests {
  @Test(arguments: RuleTable.percentageBounds)
  func percentageMustBeAnIntegerFrom0To100000(_ row: RuleCase) {
    #expect(ConsumptionRequestValidator.validate(row.request, context: row.context) == row.expected)
  }

  @Test(arguments: RuleTable.undelivered)
  func undeliveredStatusNeedsZeroPercentage(_ row: RuleCase) {
    #expect(ConsumptionRequestValidator.validate(row.request, context: row.context) == row.expected)
  }

  @Test(arguments: RuleTable.autoRenewable)
  func autoRenewableSubscriptionsTakeNoPercentage(_ row: RuleCase) {
    #expect(ConsumptionRequestValidator.validate(row.request, context: row.context) == row.expected)
  }

  @Test(arguments: RuleTable.grantProrated)
  func grantProratedNeedsAPartialPercentageExceptForAutoRenewable(_ row: RuleCase) {
    #expect(ConsumptionRequestValidator.validate(row.request, context: row.context) == row.expected)
  }

  @Test(arguments: RuleTable.otherPreferences)
  func grantFullAndDeclineWorkForEveryProductType(_ row: RuleCase) {
    #expect(ConsumptionRequestValidator.validate(row.request, context: row.context) == row.expected)
  }

  @Test(arguments: RuleTable.consentAndOwnership)
  func consentIsRequiredAndFamilyOrAssignedTransactionsAreRefused(_ row: RuleCase) {
    #expect(ConsumptionRequestValidator.validate(row.request, context: row.context) == row.expected)
  }

  @Test(arguments: RuleTable.several)
  func severalViolationsAreReportedTogetherInStableOrder(_ row: RuleCase) {
    #expect(ConsumptionRequestValidator.validate(row.request, context: row.context) == row.expected)
  }

  @Test(arguments: RuleTable.all)
  func rawBodyOfATypedRequestGetsTheSameVerdict(_ row: RuleCase) throws {
    let body = try row.request.jsonData()
    #expect(ConsumptionRequestValidator.validate(body: body, context: row.context) == row.expected)
  }

  @Test func contextCanComeFromADecodedTransaction() throws {
    var transaction = JWSTransactionDecodedPayload()
    transaction.type = .autoRenewable
    transaction.inAppOwnershipType = .familyShared
    let request = ConsumptionRequest(
      customerConsented: true, deliveryStatus: .delivered, sampleContentProvided: false,
      consumptionPercentage: 10)
    #expect(
      ConsumptionRequestValidator.validate(
        request, context: ConsumptionValidationContext(transaction: transaction)) == [
          .consumptionPercentageAutoRenewableSubscription, .familyTransactionNotSupported,
        ])
  }
}

/// Apple's own transaction example carries `advancedCommerceInfo`: such a purchase is not
/// answered, whatever the body.
@Test func anAdvancedCommerceTransactionIsRefusedWhateverTheBody() throws {
  let transaction = try Fixture.decode(JWSTransactionDecodedPayload.self, "signedTransaction.json")
  var context = ConsumptionValidationContext(transaction: transaction)
  context.productType = .consumable
  let request = ConsumptionRequest(
    customerConsented: true, deliveryStatus: .delivered, sampleContentProvided: false)
  #expect(
    ConsumptionRequestValidator.validate(request, context: context) == [
      .advancedCommerceTransactionNotSupported
    ])
}

@Suite("AppleRuleViolation names, codes and messages")
struct AppleRuleViolationTests {
  @Test func publishedCodesAreApples() {
    let codes = Dictionary(
      uniqueKeysWithValues: AppleRuleViolation.allCases.map { ($0.errorName, $0.errorCode) })
    #expect(codes["InvalidCustomerConsentedError"] == 4_000_035)
    #expect(codes["InvalidDeliveryStatusError"] == 4_000_036)
    #expect(codes["InvalidSampleContentProvidedError"] == 4_000_041)
    #expect(codes["InvalidRefundPreferenceError"] == 4_000_044)
    #expect(codes["FamilyTransactionNotSupportedError"] == 4_000_185)
    #expect(codes["ConsumptionPercentageAutoRenewableSubscriptionError"] == 4_000_209)
    #expect(codes["InvalidAssignedTransactionNotSupportedError"] == 4_000_227)
    #expect(codes["ConsumptionPercentageOutOfRangeError"] == .some(nil))
    #expect(codes["UndeliveredConsumptionPercentageNonZeroError"] == .some(nil))
    #expect(codes["AdvancedCommerceTransactionNotSupportedError"] == .some(nil))
  }

  @Test func onlyTheProratedRuleCarriesAReckonName() {
    #expect(
      AppleRuleViolation.allCases.filter { !$0.isNamedByApple } == [
        .grantProratedConsumptionPercentage
      ])
  }

  @Test(arguments: AppleRuleViolation.allCases)
  func numberedViolationsAgreeWithTheAPIErrorCode(_ violation: AppleRuleViolation) {
    guard let code = violation.errorCode else { return }
    #expect(AppStoreAPIErrorCode(rawCode: code).errorName == violation.errorName)
  }

  @Test(arguments: AppleRuleViolation.allCases)
  func everyViolationHasOneReadableSentence(_ violation: AppleRuleViolation) {
    #expect(violation.message.hasSuffix("."))
    #expect(violation.errorName.hasSuffix("Error"))
  }
}
