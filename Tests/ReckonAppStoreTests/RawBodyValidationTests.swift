import Foundation
import ReckonAppStore
import Testing

/// A raw body as a strict server would receive it, and the Apple errors it must produce.
struct RawBodyCase: CustomTestStringConvertible, Sendable {
  let name: String
  let body: String
  let context: ConsumptionValidationContext
  let expected: [AppleRuleViolation]

  var testDescription: String { name }

  init(
    _ name: String, _ body: String,
    product: ProductType? = .consumable, ownership: InAppOwnershipType? = .purchased,
    expect expected: [AppleRuleViolation]
  ) {
    self.name = name
    self.body = body
    self.context = ConsumptionValidationContext(productType: product, ownershipType: ownership)
    self.expected = expected
  }

  /// A valid body with one field replaced by raw JSON text, or removed when `value` is nil.
  static func field(
    _ key: String, _ value: String?, expect expected: [AppleRuleViolation]
  ) -> RawBodyCase {
    var fields = [
      "customerConsented": "true", "deliveryStatus": "\"DELIVERED\"",
      "sampleContentProvided": "false",
    ]
    fields[key] = value
    let body =
      "{"
      + fields.sorted { $0.key < $1.key }.map { "\"\($0)\":\($1)" }
      .joined(separator: ",") + "}"
    return RawBodyCase("\(key) = \(value ?? "missing")", body, expect: expected)
  }
}

@Suite("Apple's 400 rules for a raw JSON body")
struct RawBodyValidationTests {
  static let requiredFields: [RawBodyCase] =
    [
      ("customerConsented", AppleRuleViolation.invalidCustomerConsented, ["\"true\"", "1"]),
      ("deliveryStatus", .invalidDeliveryStatus, ["\"delivered\"", "\"SHIPPED\"", "3", "true"]),
      ("sampleContentProvided", .invalidSampleContentProvided, ["\"false\"", "0"]),
    ].flatMap { key, violation, wrongValues in
      ([nil, "null"] + wrongValues).map { RawBodyCase.field(key, $0, expect: [violation]) }
    } + [RawBodyCase.field("customerConsented", "false", expect: [.invalidCustomerConsented])]

  static let optionalFields: [RawBodyCase] =
    ["94.5", "\"94000\"", "null", "true", "1e20", "100001", "100001.0", "-1"].map {
      RawBodyCase.field("consumptionPercentage", $0, expect: [.consumptionPercentageOutOfRange])
    }
    + ["null", "\"GRANT\"", "\"grant_full\"", "3"].map {
      RawBodyCase.field("refundPreference", $0, expect: [.invalidRefundPreference])
    } + [
      RawBodyCase.field("consumptionPercentage", "94000", expect: []),
      // A whole number with a fraction or exponent reads as an integer, as JSONDecoder reads it.
      RawBodyCase.field("consumptionPercentage", "94000.0", expect: []),
      RawBodyCase.field("consumptionPercentage", "9.4e4", expect: []),
      RawBodyCase.field("refundPreference", "\"GRANT_FULL\"", expect: []),
      RawBodyCase.field("appAccountToken", "\"not part of v2\"", expect: []),
    ]

  static let notAnObject: [RawBodyCase] = ["", "not json", "null", "[]", "\"body\"", "{"].map {
    RawBodyCase("body \($0.isEmpty ? "empty" : $0)", $0, expect: [.generalBadRequest])
  }

  static let crossField: [RawBodyCase] = [
    RawBodyCase(
      "empty object misses all three required fields", "{}",
      expect: [.invalidCustomerConsented, .invalidDeliveryStatus, .invalidSampleContentProvided]),
    RawBodyCase(
      "undelivered at 5000",
      #"{"customerConsented":true,"deliveryStatus":"UNDELIVERED_OTHER","sampleContentProvided":true,"consumptionPercentage":5000}"#,
      expect: [.undeliveredConsumptionPercentageNonZero]),
    RawBodyCase(
      "unknown delivery status leaves the undelivered rule unjudged",
      #"{"customerConsented":true,"deliveryStatus":"LOST","sampleContentProvided":true,"consumptionPercentage":5000}"#,
      expect: [.invalidDeliveryStatus]),
    RawBodyCase(
      "auto-renewable with null percentage",
      #"{"customerConsented":true,"deliveryStatus":"DELIVERED","sampleContentProvided":true,"consumptionPercentage":null}"#,
      product: .autoRenewable,
      expect: [.consumptionPercentageOutOfRange, .consumptionPercentageAutoRenewableSubscription]),
    RawBodyCase(
      "GRANT_PRORATED with fractional percentage",
      #"{"customerConsented":true,"deliveryStatus":"DELIVERED","sampleContentProvided":true,"consumptionPercentage":94.5,"refundPreference":"GRANT_PRORATED"}"#,
      expect: [.consumptionPercentageOutOfRange, .grantProratedConsumptionPercentage]),
    RawBodyCase(
      "GRANT_PRORATED non-consumable without percentage",
      #"{"customerConsented":true,"deliveryStatus":"DELIVERED","sampleContentProvided":true,"refundPreference":"GRANT_PRORATED"}"#,
      product: .nonConsumable, expect: [.grantProratedConsumptionPercentage]),
    RawBodyCase(
      "family shared, string consent",
      #"{"customerConsented":"true","deliveryStatus":"DELIVERED","sampleContentProvided":true}"#,
      ownership: .familyShared,
      expect: [.invalidCustomerConsented, .familyTransactionNotSupported]),
  ]

  @Test(arguments: requiredFields)
  func requiredFieldMissingNullOrWrongTypeIsRefused(_ row: RawBodyCase) {
    #expect(
      ConsumptionRequestValidator.validate(body: Data(row.body.utf8), context: row.context)
        == row.expected)
  }

  @Test(arguments: optionalFields)
  func optionalFieldNullOrWrongTypeIsRefusedAndUnknownKeysIgnored(_ row: RawBodyCase) {
    #expect(
      ConsumptionRequestValidator.validate(body: Data(row.body.utf8), context: row.context)
        == row.expected)
  }

  @Test(arguments: notAnObject)
  func bodyThatIsNotAJSONObjectIsABadRequest(_ row: RawBodyCase) {
    #expect(
      ConsumptionRequestValidator.validate(body: Data(row.body.utf8), context: row.context)
        == row.expected)
  }

  @Test(arguments: crossField)
  func crossFieldRulesApplyToWhateverParsed(_ row: RawBodyCase) {
    #expect(
      ConsumptionRequestValidator.validate(body: Data(row.body.utf8), context: row.context)
        == row.expected)
  }

  @Test func applesLibraryBodiesAreValid() throws {
    for name in ["consumptionRequestV2.full.json", "consumptionRequestV2.minimal.json"] {
      #expect(ConsumptionRequestValidator.validate(body: try Fixture.data(name)).isEmpty)
    }
  }

  @Test func v1BodyIsRefusedForItsIntegerDeliveryStatus() throws {
    let v1 =
      #"{"customerConsented":true,"consumptionStatus":1,"platform":2,"sampleContentProvided":false,"deliveryStatus":3}"#
    #expect(ConsumptionRequestValidator.validate(body: Data(v1.utf8)) == [.invalidDeliveryStatus])
  }

  @Test(arguments: [
    (
      #"{"customerConsented":true,"deliveryStatus":"DELIVERED","sampleContentProvided":false,"refundPreference":"GRANT_PRORATED","consumptionPercentage":0}"#,
      AppleRuleViolation.grantProratedConsumptionPercentage
    ),
    (
      #"{"customerConsented":true,"deliveryStatus":"UNDELIVERED_SERVER_OUTAGE","sampleContentProvided":false,"consumptionPercentage":5}"#,
      AppleRuleViolation.undeliveredConsumptionPercentageNonZero
    ),
  ])
  func aRefusedBodySaysWhatIsWrongInWordsWithApplesNameOnlyWhereAppleHasOne(
    _ body: String, _ violation: AppleRuleViolation
  ) {
    do {
      _ = try ValidatedConsumptionBody(
        validating: Data(body.utf8), context: .init(productType: .consumable))
      Issue.record("the body was accepted")
    } catch {
      let text = error.description
      #expect(text.contains(violation.message), "\(text)")
      #expect(text.contains(violation.errorName) == violation.isNamedByApple, "\(text)")
    }
  }
}
