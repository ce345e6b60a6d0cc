import ReckonPolicy

/// A small schema shaped like Reckon's, so the language is tested without the App Store vocabulary.
enum TestSchema {
  static let delivery = EnumType(
    name: "DeliveryStatus", cases: ["DELIVERED", "UNDELIVERED_QUALITY_ISSUE", "UNDELIVERED_OTHER"])
  static let reason = EnumType(
    name: "Reason", cases: ["UNINTENDED_PURCHASE", "FULFILLMENT_ISSUE", "LEGAL", "OTHER"])
  static let productType = EnumType(
    name: "ProductType", cases: ["CONSUMABLE", "NON_CONSUMABLE", "AUTO_RENEWABLE"])
  static let refund = EnumType(
    name: "RefundPreference", cases: ["DECLINE", "GRANT_FULL", "GRANT_PRORATED"])
  static let override = EnumType(
    name: "Override",
    cases: ["DECLINE", "GRANT_FULL", "GRANT_PRORATED", "NO_PREFERENCE", "DO_NOT_RESPOND"])

  /// The words of Reckon's App Store policies, which the language's own tests are written in.
  static let words = PolicyVocabulary(
    store: "Apple", choose: .init("refund", doing: "refunds"), choiceNoun: "refund preference",
    replyWithoutChoice: .init("share data only", doing: "shares data only"),
    withholdReply: .init("do not respond", doing: "does not respond"),
    holdForReview: .init("hold for review", doing: "holds for review"),
    examples: .init(
      grant: "GRANT_FULL", decline: "DECLINE", percentFact: "usage.consumed",
      optionalFact: "customer.override", enumFact: "delivery.status",
      settableField: "deliveryStatus"))

  static let schema = PolicySchema(
    facts: [
      FactDescriptor(name: "reason", type: .enumeration(reason), isOptional: false, summary: ""),
      FactDescriptor(name: "now", type: .timestamp, isOptional: false, summary: ""),
      FactDescriptor(name: "product.id", type: .text, isOptional: false, summary: ""),
      FactDescriptor(
        name: "product.type", type: .enumeration(productType), isOptional: false, summary: ""),
      FactDescriptor(name: "purchase.date", type: .timestamp, isOptional: false, summary: ""),
      FactDescriptor(name: "purchase.price", type: .money, isOptional: true, summary: ""),
      FactDescriptor(
        name: "delivery.status", type: .enumeration(delivery), isOptional: false, summary: ""),
      FactDescriptor(name: "usage.consumed", type: .percent, isOptional: false, summary: ""),
      FactDescriptor(name: "usage.last_used", type: .timestamp, isOptional: true, summary: ""),
      FactDescriptor(name: "customer.consented", type: .boolean, isOptional: false, summary: ""),
      FactDescriptor(name: "customer.account_age", type: .duration, isOptional: false, summary: ""),
      FactDescriptor(
        name: "customer.refunds_last_90_days", type: .number, isOptional: false, summary: ""),
      FactDescriptor(
        name: "customer.override", type: .enumeration(override), isOptional: true, summary: ""),
    ],
    refundChoices: refund,
    settableFields: [
      FieldDescriptor(
        name: "deliveryStatus", type: .enumeration(delivery), fact: "delivery.status"),
      FieldDescriptor(name: "sampleContentProvided", type: .boolean),
      FieldDescriptor(name: "consumptionPercentage", type: .percent),
    ],
    vocabulary: words,
    boundedChoice: BoundedChoice(
      choice: "GRANT_PRORATED", boundedFact: "usage.consumed",
      overridingField: "consumptionPercentage",
      categoryFact: "product.type", exemptCategories: ["AUTO_RENEWABLE"],
      requiredFact: "delivery.status", requiredValue: "DELIVERED",
      requiredField: "deliveryStatus"),
    consentFact: "customer.consented")

  /// Loads policy text against the test schema.
  static func load(_ text: String, path: String = "test.policy") -> PolicyLoader.Result {
    PolicyLoader.load(SourceFile(path: path, text: text), schema: schema)
  }

  /// Loads policy bytes, which need not be UTF-8, against the test schema.
  static func load(contents: [UInt8], path: String = "test.policy") -> PolicyLoader.Result {
    PolicyLoader.load(SourceFile(path: path, contents: contents), schema: schema)
  }

  /// Facts built from name/value pairs.
  static func facts(_ pairs: [String: Value]) throws -> FactValues {
    var facts = FactValues(schema: schema)
    for (name, value) in pairs { try facts.set(name, to: value) }
    return facts
  }
}

extension Parser {
  /// Parses `source` written in the test vocabulary.
  static func parse(_ source: SourceFile) -> (syntax: PolicySyntax, diagnostics: [Diagnostic]) {
    parse(source, vocabulary: TestSchema.words)
  }
}

extension PolicyFormatter {
  /// A formatter of policies written in the test vocabulary.
  init(width: Int = 100) { self.init(vocabulary: TestSchema.words, width: width) }
}
