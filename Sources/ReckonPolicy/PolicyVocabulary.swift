/// The words a store's policies are written in: the phrase of each of the language's four
/// actions, and the names and examples its messages use. The language knows none of them; the
/// application hands them in with the schema.
public struct PolicyVocabulary: Hashable, Sendable {
  /// How one action is written, and how a message says a rule does it.
  public struct Phrase: Hashable, Sendable {
    /// The words, as a policy writes them: `share data only`.
    public let words: [String]
    /// What a rule that takes it does, for messages: `shares data only`.
    public let doing: String

    /// A phrase of the words in `text`, separated by spaces.
    public init(_ text: String, doing: String) {
      self.words = text.split(separator: " ").map(String.init)
      self.doing = doing
    }

    /// The words as one string.
    public var text: String { words.joined(separator: " ") }
  }

  /// The store, as messages name it: `Apple refuses …`.
  public let store: String
  /// The action that replies with one of the schema's choices, written before the choice.
  public let choose: Phrase
  /// What a choice is called in messages: `refund preference`.
  public let choiceNoun: String
  /// The action that replies without a choice.
  public let replyWithoutChoice: Phrase
  /// The action that sends no reply at all.
  public let withholdReply: Phrase
  /// The action that keeps the reply for a person to review before it goes.
  public let holdForReview: Phrase
  /// Names the hints use to show what to write.
  public let examples: Examples
  /// The enumeration value that, followed (`follow FACT`), replies without a choice.
  public let followWithoutChoice: String
  /// The enumeration value that, followed, sends no reply.
  public let followWithhold: String

  /// The names hints use as examples; each should be a real one of the schema.
  public struct Examples: Hashable, Sendable {
    /// A choice that grants: `GRANT_FULL`.
    public let grant: String
    /// A choice that declines: `DECLINE`.
    public let decline: String
    /// A percent fact: `usage.consumed`.
    public let percentFact: String
    /// A fact that may be missing: `customer.override`.
    public let optionalFact: String
    /// An enum fact: `delivery.status`.
    public let enumFact: String
    /// A body field a rule may set: `deliveryStatus`.
    public let settableField: String

    /// Creates the examples.
    public init(
      grant: String, decline: String, percentFact: String, optionalFact: String,
      enumFact: String, settableField: String
    ) {
      self.grant = grant
      self.decline = decline
      self.percentFact = percentFact
      self.optionalFact = optionalFact
      self.enumFact = enumFact
      self.settableField = settableField
    }
  }

  /// Words of another vocabulary a policy may have been written in, each with the hint an
  /// unknown value of that spelling gets: `a Google Play word: check the file with …`.
  public var otherWords: [String: String] = [:]
  /// The choice a reply without one is sent with, for a store that takes no reply without a
  /// choice (Google Play's `NEUTRAL`); nil where the reply goes without one.
  public var replyWithoutChoiceSends: String? = nil

  /// The reply's fields a test may expect, in the order suggestions list them; a name here is
  /// a field of the reply, never a let, and is expected only of a decision that replies.
  public var replyFields: [String] = []
  /// Reply fields a test may name by a second name, each to the field it names (Google's
  /// `consumptionPercentageMilliunits` is the `consumptionPercentage` a policy's `set` writes).
  public var fieldAliases: [String: String] = [:]

  /// The reply field `name` names: itself, or the field it is a second name for.
  public func field(_ name: String) -> String { fieldAliases[name] ?? name }

  /// The body field the choice is sent in (`refundPreference`), absent from a reply without a
  /// choice, so a test expecting it is read as expecting the choice; nil when no field holds
  /// just the choice (Google Play answers a reply without one as NEUTRAL).
  public let choiceField: String?

  /// Creates a vocabulary.
  public init(
    store: String, choose: Phrase, choiceNoun: String, replyWithoutChoice: Phrase,
    withholdReply: Phrase, holdForReview: Phrase, examples: Examples,
    followWithoutChoice: String = "NO_PREFERENCE", followWithhold: String = "DO_NOT_RESPOND",
    choiceField: String? = nil
  ) {
    self.choiceField = choiceField
    self.followWithoutChoice = followWithoutChoice
    self.followWithhold = followWithhold
    self.store = store
    self.choose = choose
    self.choiceNoun = choiceNoun
    self.replyWithoutChoice = replyWithoutChoice
    self.withholdReply = withholdReply
    self.holdForReview = holdForReview
    self.examples = examples
  }

  /// The phrases of the actions that take no argument, with the kind each writes.
  var plainActions: [(phrase: Phrase, kind: Action.Kind)] {
    [
      (replyWithoutChoice, .replyWithoutChoice), (withholdReply, .withholdReply),
      (holdForReview, .holdForReview),
    ]
  }

  /// Every action as a hint lists it: `refund GRANT_FULL, share data only, …`.
  var actionList: String {
    "\(choose.text) \(examples.grant), \(replyWithoutChoice.text), \(withholdReply.text), \(holdForReview.text)"
  }
}
