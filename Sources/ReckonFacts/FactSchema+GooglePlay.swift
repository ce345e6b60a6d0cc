import ReckonPolicy

extension FactSchema {
  /// Google Play's words and types, beside Apple's in `FactSchema`.
  public enum GooglePlay {
    /// The words Google Play policies are written in: `refund APPROVE`, `refund DECLINE`,
    /// `refund NEUTRAL`; `share data only` answers NEUTRAL with the usage data, since Google
    /// takes no answer without a preference.
    public static let words: PolicyVocabulary = {
      var words = PolicyVocabulary(
        store: "Google Play", choose: .init("refund", doing: "refunds"),
        choiceNoun: "refund preference",
        replyWithoutChoice: .init("share data only", doing: "shares data only"),
        withholdReply: .init("do not respond", doing: "does not respond"),
        holdForReview: .init("hold for review", doing: "holds for review"),
        examples: .init(
          grant: "APPROVE", decline: "DECLINE", percentFact: "usage.consumed",
          optionalFact: "customer.override", enumFact: "delivery.status",
          settableField: "sampleContentProvided"))
      words.replyWithoutChoiceSends = "NEUTRAL"
      words.replyFields = [
        "sampleContentProvided", "consumptionPercentage", "consumptionPercentageMilliunits",
        "refundPreference",
      ]
      words.fieldAliases = ["consumptionPercentageMilliunits": "consumptionPercentage"]
      words.otherWords = FactSchema.otherWords(
        [
          FactSchema.reason, FactSchema.productType, FactSchema.refundPreference,
          FactSchema.customerOverride,
        ],
        besides: [reason, refundPreference, customerOverride, FactSchema.deliveryStatus],
        note: "an App Store word, and this file is checked in Google Play's: check an App Store "
          + "policy without --store googlePlay (or give --config the configuration that uses it)")
      return words
    }()

    /// Why the customer asked, by Google's numbers (`refundReason`).
    public static let reason = EnumType(
      name: "GooglePlayRefundReason",
      cases: [
        "OTHER", "REMORSE", "NOT_RECEIVED", "DEFECTIVE", "ACCIDENTAL_PURCHASE", "FRAUD",
        "FRIENDLY_FRAUD", "CHARGEBACK",
      ], noun: "reason")
    /// What the developer would have Google do.
    public static let refundPreference = EnumType(
      name: "GooglePlayRefundPreference", cases: ["APPROVE", "DECLINE", "NEUTRAL"])
    /// A preference support set for one customer, in Google's words.
    public static let customerOverride = EnumType(
      name: "GooglePlayCustomerOverride",
      cases: ["APPROVE", "DECLINE", "NEUTRAL", "NO_PREFERENCE", "DO_NOT_RESPOND"],
      noun: "override")

    /// The answer's fields a rule may set with `set`: the same names as Apple's where they mean
    /// the same (a percentage is sent as Google's milliunits).
    public static let settableFields = [
      FieldDescriptor(
        name: "sampleContentProvided", type: .boolean, fact: "product.sample_offered"),
      FieldDescriptor(name: "consumptionPercentage", type: .percent),
    ]
  }

  /// Google Play's facts: the review notification's own, then the facts Apple's requests have
  /// too where they mean the same thing (usage, delivery, customer, history).
  static let googlePlayEntries: [Entry] =
    [
      entry(
        "reason", .enumeration(GooglePlay.reason), .notification,
        "Why the customer asked for the chargeback, as Google numbers it; missing when the review does not say or gives a number Reckon does not know.",
        optional: true),
      entry(
        "now", .timestamp, .notification,
        "When the review notification was received; a dry-run uses the request's own time."),
      entry("order.id", .text, .notification, "The Google Play order the chargeback is for."),
      entry(
        "request.package_name", .text, .notification,
        "The app's package name, e.g. com.example.app."),
      entry(
        "customer.obfuscated_account_id", .text, .notification,
        "The app's obfuscated id of the buyer's account, as the app set it at purchase.",
        optional: true),
      entry(
        "customer.obfuscated_profile_id", .text, .notification,
        "The app's obfuscated id of the buyer's profile, as the app set it at purchase.",
        optional: true),
      entry(
        "product.id", .text, .adapter,
        "The product bought; Google's review names the order only, so the app's records give it.",
        optional: true),
      entry(
        "product.sample_offered", .boolean, .adapter,
        "Whether a free sample, trial or clear description was offered before purchase."),
      entry(
        "purchase.date", .timestamp, .adapter,
        "When the purchase was made, from the app's records.",
        optional: true),
      entry(
        "purchase.price", .money, .adapter,
        "What the customer paid, with its currency, from the app's records.", optional: true),
    ]
    + standardEntries.filter { shared.contains($0.descriptor.name) }.map(inGooglesWords)

  /// The facts of Apple's table that mean the same for a Google review.
  private static let shared: Set<String> = [
    "delivery.status", "usage.consumed", "usage.consumed_units", "usage.last_used",
    "customer.consented", "customer.account_age", "customer.lifetime_spent",
    "customer.lifetime_refunded", "customer.refunds_last_90_days", "customer.override",
    "history.earlier_requests", "history.earlier_refunds",
  ]

  /// An entry of Apple's table as a Google review reads it: the override in Google's words,
  /// the history counted by order.
  private static func inGooglesWords(_ entry: Entry) -> Entry {
    let fact = entry.descriptor
    switch fact.name {
    case "customer.override":
      return Self.entry(
        fact.name, .enumeration(GooglePlay.customerOverride), entry.origin, fact.summary,
        optional: true)
    case "history.earlier_requests":
      return Self.entry(
        fact.name, fact.type, entry.origin,
        "Earlier chargeback reviews for the same order.")
    case "history.earlier_refunds":
      return Self.entry(
        fact.name, fact.type, entry.origin,
        "Refunds Google already made to this customer (by obfuscated account id) in the same app.")
    default: return entry
    }
  }
}
