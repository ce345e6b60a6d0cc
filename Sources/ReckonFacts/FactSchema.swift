import ReckonPolicy

/// Reckon's fact schema: every fact a policy may read, its type, whether it may be missing, and
/// where it comes from. This one table feeds the checker, the adapters and docs/facts.md.
public struct FactSchema: Sendable {
  /// Where a fact's value comes from.
  public enum Origin: String, Hashable, Sendable {
    /// The signed notification itself; an adapter can never override it.
    case notification
    /// The app's own systems, through the configured fact sources.
    case adapter
    /// Reckon's own records of earlier requests and outcomes.
    case records
  }

  /// One row of the table.
  public struct Entry: Hashable, Sendable {
    /// The fact as the language sees it.
    public let descriptor: FactDescriptor
    /// Where its value comes from.
    public let origin: Origin
  }

  /// The store whose requests the schema's facts describe.
  public enum Store: String, Hashable, Sendable, CaseIterable {
    /// Apple's App Store: CONSUMPTION_REQUEST notifications.
    case appStore
    /// Google Play: chargeback reviews (PendingRefundReviewNotification).
    case googlePlay
  }

  /// The store the schema is for.
  public let store: Store
  /// The rows, in documentation order.
  public let entries: [Entry]
  /// The schema the policy checker uses.
  public let policySchema: PolicySchema
  /// What fact sources read by this schema may hold for other stores (`readingSources`).
  public internal(set) var otherStores = OtherStores.none

  /// Reckon's standard facts for `store`'s requests plus the `custom.NAME` facts a
  /// configuration declares, with the configuration's rates for comparing money across
  /// currencies.
  public init(
    store: Store = .appStore, customFacts: [FactDescriptor] = [],
    currencyRates: CurrencyRates = .none
  ) {
    self.store = store
    let custom = customFacts.map { Entry(descriptor: $0, origin: .adapter) }
    switch store {
    case .appStore:
      self.entries = FactSchema.standardEntries + custom
      self.policySchema = PolicySchema(
        facts: entries.map(\.descriptor), refundChoices: FactSchema.refundPreference,
        settableFields: FactSchema.settableFields, vocabulary: FactSchema.words,
        boundedChoice: BoundedChoice(
          choice: "GRANT_PRORATED", boundedFact: "usage.consumed",
          overridingField: "consumptionPercentage",
          categoryFact: "product.type", exemptCategories: ["AUTO_RENEWABLE"],
          requiredFact: "delivery.status", requiredValue: "DELIVERED",
          requiredField: "deliveryStatus"),
        consentFact: "customer.consented", currencyRates: currencyRates)
    case .googlePlay:
      self.entries = FactSchema.googlePlayEntries + custom
      self.policySchema = PolicySchema(
        facts: entries.map(\.descriptor), refundChoices: FactSchema.GooglePlay.refundPreference,
        settableFields: FactSchema.GooglePlay.settableFields,
        vocabulary: FactSchema.GooglePlay.words, consentFact: "customer.consented",
        currencyRates: currencyRates)
    }
  }

  /// This schema's custom facts and rates over `store`'s standard facts.
  public func schema(for store: Store) -> FactSchema {
    guard store != self.store else { return self }
    let standard = Set(
      (self.store == .appStore ? FactSchema.standardEntries : FactSchema.googlePlayEntries)
        .map(\.descriptor.name))
    return FactSchema(
      store: store,
      customFacts: entries.map(\.descriptor).filter { !standard.contains($0.name) },
      currencyRates: policySchema.currencyRates)
  }

  /// The origin of the fact called `name`, if there is one.
  public func origin(of name: String) -> Origin? {
    entries.first { $0.descriptor.name == name }?.origin
  }

  /// The standard schema with no custom facts.
  public static let standard = FactSchema()
  /// The standard schema of Google Play requests, with no custom facts.
  public static let googlePlay = FactSchema(store: .googlePlay)
}

extension FactSchema {
  /// The words App Store policies are written in.
  public static let words: PolicyVocabulary = {
    var words = PolicyVocabulary(
      store: "Apple", choose: .init("refund", doing: "refunds"), choiceNoun: "refund preference",
      replyWithoutChoice: .init("share data only", doing: "shares data only"),
      withholdReply: .init("do not respond", doing: "does not respond"),
      holdForReview: .init("hold for review", doing: "holds for review"),
      examples: .init(
        grant: "GRANT_FULL", decline: "DECLINE", percentFact: "usage.consumed",
        optionalFact: "customer.override", enumFact: "delivery.status",
        settableField: "deliveryStatus"), choiceField: "refundPreference")
    words.replyFields = [
      "customerConsented", "deliveryStatus", "sampleContentProvided", "consumptionPercentage",
      "refundPreference",
    ]
    words.otherWords = otherWords(
      [GooglePlay.reason, GooglePlay.refundPreference, GooglePlay.customerOverride],
      besides: [reason, productType, deliveryStatus, refundPreference, customerOverride],
      note: "a Google Play word, and this file is checked in the App Store's: for a Google Play "
        + "policy add --store googlePlay (or give --config the configuration that uses it)")
    return words
  }()

  /// Each value of `theirs` that none of `ours` has, with `note`.
  static func otherWords(_ theirs: [EnumType], besides ours: [EnumType], note: String)
    -> [String: String]
  {
    let own = Set(ours.flatMap(\.cases))
    var words: [String: String] = [:]
    for word in theirs.flatMap(\.cases) where !own.contains(word) {
      words[word] = "\(word) is " + note
    }
    return words
  }

  /// Why the customer asked for a refund.
  public static let reason = EnumType(
    name: "ConsumptionRequestReason",
    cases: [
      "UNINTENDED_PURCHASE", "FULFILLMENT_ISSUE", "UNSATISFIED_WITH_PURCHASE", "LEGAL", "OTHER",
    ], noun: "reason")
  /// The kind of in-app purchase.
  public static let productType = EnumType(
    name: "ProductType", cases: ["CONSUMABLE", "NON_CONSUMABLE", "AUTO_RENEWABLE", "NON_RENEWING"])
  /// Whether the purchase reached the customer, and if not why.
  public static let deliveryStatus = EnumType(
    name: "DeliveryStatus",
    cases: [
      "DELIVERED", "UNDELIVERED_QUALITY_ISSUE", "UNDELIVERED_WRONG_ITEM",
      "UNDELIVERED_SERVER_OUTAGE",
      "UNDELIVERED_OTHER",
    ])
  /// The outcome the developer prefers.
  public static let refundPreference = EnumType(
    name: "RefundPreference", cases: ["DECLINE", "GRANT_FULL", "GRANT_PRORATED"])
  /// A preference support set for one customer.
  public static let customerOverride = EnumType(
    name: "CustomerOverride",
    cases: ["GRANT_FULL", "GRANT_PRORATED", "DECLINE", "NO_PREFERENCE", "DO_NOT_RESPOND"],
    noun: "override")
  /// The App Store environment the notification came from.
  public static let environment = EnumType(
    name: "Environment", cases: ["PRODUCTION", "SANDBOX", "XCODE", "LOCAL_TESTING"])
  /// The kind of offer the purchase was made with.
  public static let offer = EnumType(
    name: "OfferType", cases: ["INTRODUCTORY", "PROMOTIONAL", "OFFER_CODE", "WIN_BACK"])

  /// The body fields a rule may override with `set`.
  public static let settableFields = [
    FieldDescriptor(
      name: "deliveryStatus", type: .enumeration(deliveryStatus), fact: "delivery.status"),
    FieldDescriptor(
      name: "sampleContentProvided", type: .boolean, fact: "product.sample_offered"),
    FieldDescriptor(name: "consumptionPercentage", type: .percent),
  ]

  static let standardEntries: [Entry] = [
    entry(
      "reason", .enumeration(reason), .notification,
      "The customer's stated reason for the refund request."),
    entry(
      "now", .timestamp, .notification,
      "When the notification was received; a dry-run uses the request's own time."),
    entry(
      "request.environment", .enumeration(environment), .notification,
      "The App Store environment of the notification."),
    entry("product.id", .text, .notification, "The product identifier of the purchase."),
    entry(
      "product.type", .enumeration(productType), .notification,
      "Consumable, non-consumable, auto-renewable or non-renewing."),
    entry(
      "product.sample_offered", .boolean, .adapter,
      "Whether a free sample, trial or clear description was offered before purchase."),
    entry("purchase.date", .timestamp, .notification, "When the purchase was made."),
    entry(
      "purchase.original_date", .timestamp, .notification,
      "When the original purchase was made: a subscription's first purchase, which its renewals keep; for any other purchase, purchase.date. Missing for a renewal that does not say.",
      optional: true),
    entry("purchase.quantity", .number, .notification, "How many items the purchase was for."),
    entry(
      "purchase.price", .money, .notification, "What the customer paid, with its currency.",
      optional: true),
    entry(
      "purchase.storefront", .text, .notification, "The three-letter storefront code, e.g. USA.",
      optional: true),
    entry(
      "purchase.offer", .enumeration(offer), .notification,
      "The offer the purchase used, missing when none.", optional: true),
    entry(
      "delivery.status", .enumeration(deliveryStatus), .adapter,
      "Whether the purchase was delivered and works."),
    entry(
      "usage.consumed", .percent, .adapter,
      "How much of the purchase the customer used, 0% to 100%."),
    entry(
      "usage.consumed_units", .number, .adapter,
      "How many units were used, where the app counts units.", optional: true),
    entry(
      "usage.last_used", .timestamp, .adapter, "When the customer last used the purchase.",
      optional: true),
    entry(
      "customer.consented", .boolean, .adapter,
      "Whether the customer consented to sharing consumption data."),
    entry("customer.account_age", .duration, .adapter, "How long the customer has had an account."),
    entry(
      "customer.lifetime_spent", .money, .adapter, "What the customer has spent in the app, ever."),
    entry(
      "customer.lifetime_refunded", .money, .adapter, "What the customer has had refunded, ever."),
    entry(
      "customer.refunds_last_90_days", .number, .adapter,
      "How many refunds the customer had in the last 90 days."),
    entry(
      "customer.override", .enumeration(customerOverride), .adapter,
      "A preference support set for this customer.", optional: true),
    entry(
      "history.earlier_requests", .number, .records,
      "Earlier CONSUMPTION_REQUESTs for the same transaction (a repeat of a request still open is not a request of its own)."
    ),
    entry(
      "history.earlier_refunds", .number, .records,
      "Refunds already granted to this customer in the request's own app and environment (a Sandbox refund does not count for a Production request)."
    ),
  ]

  static func entry(
    _ name: String, _ type: ValueType, _ origin: Origin, _ summary: String, optional: Bool = false
  ) -> Entry {
    Entry(
      descriptor: FactDescriptor(name: name, type: type, isOptional: optional, summary: summary),
      origin: origin)
  }
}
