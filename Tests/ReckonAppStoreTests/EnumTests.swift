import ReckonAppStore
import Testing

@Suite("Apple enums")
struct EnumTests {
  @Test(arguments: ProductType.allCases)
  func productTypePolicyNameRoundTrips(_ type: ProductType) {
    #expect(ProductType(policyName: type.policyName) == type)
  }

  @Test func productTypeUsesApplesRawAndPolicyNames() {
    #expect(
      ProductType.allCases.map(\.rawValue) == [
        "Consumable", "Non-Consumable", "Auto-Renewable Subscription", "Non-Renewing Subscription",
      ])
    #expect(
      ProductType.allCases.map(\.policyName) == [
        "CONSUMABLE", "NON_CONSUMABLE", "AUTO_RENEWABLE", "NON_RENEWING",
      ])
  }

  @Test func unknownPolicyNameIsNil() {
    #expect(ProductType(policyName: "Consumable") == nil)
    #expect(ProductType(policyName: "SUBSCRIPTION") == nil)
  }

  @Test func onlyDeliveredCountsAsDelivered() {
    #expect(DeliveryStatus.allCases.filter { !$0.isUndelivered } == [.delivered])
  }

  @Test func environmentsUseApplesSpelling() {
    #expect(
      AppStoreEnvironment.allCases.map(\.rawValue) == [
        "Sandbox", "Production", "Xcode", "LocalTesting",
      ])
  }

  @Test func refundNotificationTypesAreKnown() {
    for raw in ["CONSUMPTION_REQUEST", "REFUND", "REFUND_DECLINED", "REFUND_REVERSED", "REVOKE"] {
      #expect(NotificationType(rawValue: raw) != nil, "\(raw)")
    }
  }
}
