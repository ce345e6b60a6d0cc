import ReckonAppStore
import ReckonFacts
import ReckonPolicy
import Testing

/// The policy schema describes Apple's rules as data for the checker (ReckonFacts may not import
/// ReckonAppStore), while the body validator enforces them. These tests hold the description to
/// the validator, so that changing one without the other fails here rather than in production.
struct StoreRulesAgreementTests {
  static let schema = FactSchema.standard.policySchema
  static let percentages: [Int?] = [nil, 0, 1, 50_000, 99_999, 100_000]

  @Test func theSchemasEnumsHaveApplesCasesInApplesOrder() {
    #expect(FactSchema.reason.cases == ConsumptionRequestReason.allCases.map(\.rawValue))
    #expect(FactSchema.deliveryStatus.cases == DeliveryStatus.allCases.map(\.rawValue))
    #expect(FactSchema.productType.cases == ProductType.allCases.map(\.policyName))
    #expect(
      Set(FactSchema.refundPreference.cases) == Set(RefundPreference.allCases.map(\.rawValue)))
  }

  @Test(arguments: ProductType.allCases, DeliveryStatus.allCases)
  func theBoundedChoiceAcceptsExactlyTheProratedBodiesTheValidatorAccepts(
    productType: ProductType, delivery: DeliveryStatus
  ) throws {
    let bounded = try #require(Self.schema.boundedChoice)
    #expect(bounded.choice == RefundPreference.grantProrated.rawValue)
    let choice = try #require(RefundPreference(rawValue: bounded.choice))
    for percentage in Self.percentages {
      let body = ConsumptionRequest(
        customerConsented: true, deliveryStatus: delivery, sampleContentProvided: false,
        consumptionPercentage: percentage, refundPreference: choice)
      let validatorAccepts = ConsumptionRequestValidator.validate(
        body, context: ConsumptionValidationContext(productType: productType)
      ).isEmpty
      let describedAccepts: Bool
      if bounded.exemptCategories.contains(productType.policyName) {
        describedAccepts = percentage == nil
      } else {
        let partial = percentage.map { $0 > 0 && $0 < ConsumptionRequestValidator.fullConsumption }
        describedAccepts = delivery.rawValue == bounded.requiredValue && partial == true
      }
      #expect(
        validatorAccepts == describedAccepts,
        "\(productType) \(delivery) \(percentage.map(String.init) ?? "absent")")
    }
  }

  @Test func theConsentFactIsTheOneTheBodyCarries() {
    #expect(Self.schema.consentFact == "customer.consented")
    let withoutConsent = ConsumptionRequest(
      customerConsented: false, deliveryStatus: .delivered, sampleContentProvided: false)
    #expect(ConsumptionRequestValidator.validate(withoutConsent) == [.invalidCustomerConsented])
  }
}
