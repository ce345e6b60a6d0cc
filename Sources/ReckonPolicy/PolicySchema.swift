/// Everything the checker needs to know about the world a policy decides in, handed in as data.
///
/// The language itself knows no fact, enum, body field or action word: an application (Reckon's
/// App Store vocabulary, or a test) describes them here.
public struct PolicySchema: Sendable {
  /// Held in one shared box, so copying a schema (every `FactValues` carries one) costs one
  /// reference count, not one per table.
  private final class Storage: Sendable {
    let facts: [FactDescriptor]
    let refundChoices: EnumType
    let settableFields: [FieldDescriptor]
    let boundedChoice: BoundedChoice?
    let consentFact: String?
    let vocabulary: PolicyVocabulary
    let factIndex: [String: Int]
    let currencyRates: CurrencyRates

    init(
      _ facts: [FactDescriptor], _ refundChoices: EnumType, _ settableFields: [FieldDescriptor],
      _ boundedChoice: BoundedChoice?, _ consentFact: String?, _ vocabulary: PolicyVocabulary,
      _ currencyRates: CurrencyRates
    ) {
      self.vocabulary = vocabulary
      self.currencyRates = currencyRates
      self.facts = facts
      self.refundChoices = refundChoices
      self.settableFields = settableFields
      self.boundedChoice = boundedChoice
      self.consentFact = consentFact
      var index: [String: Int] = [:]
      for (position, fact) in facts.enumerated() where index[fact.name] == nil {
        index[fact.name] = position
      }
      self.factIndex = index
    }
  }

  private let storage: Storage

  /// The facts a policy may read, by dotted name.
  public var facts: [FactDescriptor] { storage.facts }
  /// The words actions are written in, and messages use.
  public var vocabulary: PolicyVocabulary { storage.vocabulary }
  /// The choices the choosing action (`refund X`) accepts.
  public var refundChoices: EnumType { storage.refundChoices }
  /// The body fields `set FIELD = EXPR` may override.
  public var settableFields: [FieldDescriptor] { storage.settableFields }
  /// A refund choice that needs a usage fact strictly inside its range, for the checker's warning.
  public var boundedChoice: BoundedChoice? { storage.boundedChoice }
  /// The boolean fact that must be true for any reply to go (the customer's consent), for the
  /// checker's warning on a rule that answers only when it is not.
  public var consentFact: String? { storage.consentFact }
  /// The rates that let money in one currency compare with money in another.
  public var currencyRates: CurrencyRates { storage.currencyRates }

  /// Creates a schema; fact names must be unique.
  public init(
    facts: [FactDescriptor], refundChoices: EnumType, settableFields: [FieldDescriptor],
    vocabulary: PolicyVocabulary, boundedChoice: BoundedChoice? = nil, consentFact: String? = nil,
    currencyRates: CurrencyRates = .none
  ) {
    storage = Storage(
      facts, refundChoices, settableFields, boundedChoice, consentFact, vocabulary, currencyRates)
  }

  /// This schema with `rates` for comparing money across currencies.
  public func with(currencyRates rates: CurrencyRates) -> PolicySchema {
    PolicySchema(
      facts: facts, refundChoices: refundChoices, settableFields: settableFields,
      vocabulary: vocabulary, boundedChoice: boundedChoice, consentFact: consentFact,
      currencyRates: rates)
  }

  /// The number of facts, which is the number of slots.
  public var factCount: Int { storage.facts.count }

  /// Whether `other` is this schema itself (a copy of it, not one built alike), so slots found
  /// in one hold in the other.
  public func isSame(as other: PolicySchema) -> Bool { storage === other.storage }

  /// The slot of the fact called `name`, if the schema has one.
  public func slot(ofFact name: String) -> Int? {
    storage.factIndex[name]
  }

  /// The descriptor of the fact called `name`, if the schema has one.
  public func fact(named name: String) -> FactDescriptor? {
    storage.factIndex[name].map { storage.facts[$0] }
  }

  /// The body field called `name`, if `set` may override it.
  public func settableField(named name: String) -> FieldDescriptor? {
    storage.settableFields.first { $0.name == name }
  }

  /// The first segments of all fact names (`usage` for `usage.consumed`), which `let` may not reuse.
  public var factRoots: Set<String> {
    Set(storage.facts.map { String($0.name.prefix { $0 != "." }) })
  }
}

/// One fact a policy may read.
public struct FactDescriptor: Hashable, Sendable {
  /// The dotted name, e.g. `usage.consumed`.
  public let name: String
  /// The type of its values.
  public let type: ValueType
  /// Whether a request may lack it; reading an optional fact unguarded draws a warning.
  public let isOptional: Bool
  /// One line for documentation and hover text.
  public let summary: String

  /// Creates a fact descriptor.
  public init(name: String, type: ValueType, isOptional: Bool, summary: String) {
    self.name = name
    self.type = type
    self.isOptional = isOptional
    self.summary = summary
  }
}

/// A body field that a rule may set with `set FIELD = EXPR`.
public struct FieldDescriptor: Hashable, Sendable {
  /// The field's name as the store spells it, e.g. `deliveryStatus`.
  public let name: String
  /// The type an expression must have to be assigned to it.
  public let type: ValueType
  /// The fact the field tells the store when no rule sets it, e.g. `delivery.status`; a `set`
  /// the rule's own condition contradicts is warned about.
  public let fact: String?

  /// Creates a field descriptor.
  public init(name: String, type: ValueType, fact: String? = nil) {
    self.name = name
    self.type = type
    self.fact = fact
  }
}

/// A refund choice that is only valid when a percent fact lies strictly between 0% and 100% and
/// reaches the body, unless another fact puts the request in an exempt category (GRANT_PRORATED,
/// which needs a delivered purchase used strictly between 0% and 100%, except for auto-renewable
/// subscriptions). The body field that carries the percent is refused for an exempt category, and
/// refused unless 0 when the required fact lacks its value (a purchase not delivered); a rule's
/// `set` of it is sent as set, so the checker warns where that means no reply.
public struct BoundedChoice: Hashable, Sendable {
  /// The refund choice, e.g. `GRANT_PRORATED`.
  public let choice: String
  /// The percent fact that must be bounded, e.g. `usage.consumed`.
  public let boundedFact: String
  /// The body field a rule may set instead, e.g. `consumptionPercentage`.
  public let overridingField: String
  /// The enum fact that can exempt a request, e.g. `product.type`.
  public let categoryFact: String
  /// The values of `categoryFact` that need no bound, e.g. `AUTO_RENEWABLE`.
  public let exemptCategories: [String]
  /// The enum fact that must have `requiredValue` for the percent to reach the body, e.g.
  /// `delivery.status` (an undelivered purchase is sent as 0% used).
  public let requiredFact: String
  /// The value `requiredFact` must have, e.g. `DELIVERED`.
  public let requiredValue: String
  /// The body field a rule may set in place of `requiredFact`, e.g. `deliveryStatus`.
  public let requiredField: String?

  /// Creates the description of a bounded choice.
  public init(
    choice: String, boundedFact: String, overridingField: String, categoryFact: String,
    exemptCategories: [String], requiredFact: String, requiredValue: String,
    requiredField: String? = nil
  ) {
    self.requiredField = requiredField
    self.choice = choice
    self.boundedFact = boundedFact
    self.overridingField = overridingField
    self.categoryFact = categoryFact
    self.exemptCategories = exemptCategories
    self.requiredFact = requiredFact
    self.requiredValue = requiredValue
  }
}
