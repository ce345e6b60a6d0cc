import ReckonAppStore
import Testing

/// One row of the Apple-rule table: a body, the transaction it answers, and what Apple would refuse.
struct RuleCase: CustomTestStringConvertible, Sendable {
  let name: String
  let request: ConsumptionRequest
  let context: ConsumptionValidationContext
  let expected: [AppleRuleViolation]

  var testDescription: String { name }

  init(
    _ name: String,
    consented: Bool = true,
    delivery: DeliveryStatus = .delivered,
    percentage: Int? = nil,
    preference: RefundPreference? = nil,
    product: ProductType? = .consumable,
    ownership: InAppOwnershipType? = .purchased,
    expect expected: [AppleRuleViolation]
  ) {
    self.name = name
    self.request = ConsumptionRequest(
      customerConsented: consented, deliveryStatus: delivery, sampleContentProvided: true,
      consumptionPercentage: percentage, refundPreference: preference)
    self.context = ConsumptionValidationContext(productType: product, ownershipType: ownership)
    self.expected = expected
  }
}

/// The table, grouped by rule; every bound is tried on both sides.
enum RuleTable {
  static let nonAutoRenewable: [ProductType] = [.consumable, .nonConsumable, .nonRenewing]

  static let percentageBounds: [RuleCase] = [
    (0, []), (1, []), (99_999, []), (100_000, []),
    (100_001, [.consumptionPercentageOutOfRange]), (-1, [.consumptionPercentageOutOfRange]),
  ].map { (value: Int, expected: [AppleRuleViolation]) in
    RuleCase("delivered consumable at \(value)", percentage: value, expect: expected)
  }

  static let undelivered: [RuleCase] =
    DeliveryStatus.allCases.filter(\.isUndelivered).flatMap {
      status in
      [
        RuleCase("\(status.rawValue) at 0", delivery: status, percentage: 0, expect: []),
        RuleCase("\(status.rawValue) absent", delivery: status, expect: []),
        RuleCase(
          "\(status.rawValue) at 1", delivery: status, percentage: 1,
          expect: [.undeliveredConsumptionPercentageNonZero]),
        RuleCase(
          "\(status.rawValue) at 100000", delivery: status, percentage: 100_000,
          expect: [.undeliveredConsumptionPercentageNonZero]),
      ]
    } + [RuleCase("DELIVERED at 50000", percentage: 50_000, expect: [])]

  static let autoRenewable: [RuleCase] = [
    RuleCase("auto-renewable without percentage", product: .autoRenewable, expect: []),
    RuleCase(
      "auto-renewable at 0", percentage: 0, product: .autoRenewable,
      expect: [.consumptionPercentageAutoRenewableSubscription]),
    RuleCase(
      "auto-renewable at 50000", percentage: 50_000, product: .autoRenewable,
      expect: [.consumptionPercentageAutoRenewableSubscription]),
    RuleCase(
      "auto-renewable undelivered at 0", delivery: .undeliveredOther, percentage: 0,
      product: .autoRenewable, expect: [.consumptionPercentageAutoRenewableSubscription]),
  ]

  static let grantProrated: [RuleCase] =
    nonAutoRenewable.flatMap { product in
      [
        (0 as Int?, [AppleRuleViolation.grantProratedConsumptionPercentage]), (1, []),
        (99_999, []), (100_000, [.grantProratedConsumptionPercentage]),
        (nil, [.grantProratedConsumptionPercentage]),
      ].map { value, expected in
        RuleCase(
          "GRANT_PRORATED \(product.policyName) at \(value.map(String.init) ?? "absent")",
          percentage: value, preference: .grantProrated, product: product, expect: expected)
      }
    } + [
      RuleCase(
        "GRANT_PRORATED AUTO_RENEWABLE absent", preference: .grantProrated,
        product: .autoRenewable, expect: []),
      RuleCase(
        "GRANT_PRORATED AUTO_RENEWABLE at 50000", percentage: 50_000, preference: .grantProrated,
        product: .autoRenewable, expect: [.consumptionPercentageAutoRenewableSubscription]),
      RuleCase(
        "GRANT_PRORATED unknown product absent is not judged", preference: .grantProrated,
        product: nil, expect: []),
    ]

  static let otherPreferences: [RuleCase] = ProductType.allCases.flatMap { product in
    [RefundPreference.grantFull, .decline].flatMap { preference in
      [
        RuleCase(
          "\(preference.rawValue) \(product.policyName) absent", preference: preference,
          product: product, expect: [])
      ]
        + (product == .autoRenewable
          ? []
          : [
            RuleCase(
              "\(preference.rawValue) \(product.policyName) at 100000", percentage: 100_000,
              preference: preference, product: product, expect: [])
          ])
    }
  }

  static let consentAndOwnership: [RuleCase] = [
    RuleCase("consent false", consented: false, expect: [.invalidCustomerConsented]),
    RuleCase("family shared", ownership: .familyShared, expect: [.familyTransactionNotSupported]),
    RuleCase(
      "assigned by an organization", ownership: .assigned,
      expect: [.invalidAssignedTransactionNotSupported]),
    RuleCase("unknown ownership is not judged", ownership: nil, expect: []),
  ]

  static let several: [RuleCase] = [
    RuleCase(
      "no consent, undelivered at 100001, prorated, family", consented: false,
      delivery: .undeliveredOther, percentage: 100_001, preference: .grantProrated,
      ownership: .familyShared,
      expect: [
        .invalidCustomerConsented, .consumptionPercentageOutOfRange,
        .undeliveredConsumptionPercentageNonZero, .grantProratedConsumptionPercentage,
        .familyTransactionNotSupported,
      ]),
    RuleCase(
      "no consent, auto-renewable undelivered at -1", consented: false,
      delivery: .undeliveredServerOutage, percentage: -1, product: .autoRenewable,
      expect: [
        .invalidCustomerConsented, .consumptionPercentageOutOfRange,
        .undeliveredConsumptionPercentageNonZero,
        .consumptionPercentageAutoRenewableSubscription,
      ]),
  ]

  static let all: [RuleCase] =
    percentageBounds + undelivered + autoRenewable + grantProrated + otherPreferences
    + consentAndOwnership + several
}
