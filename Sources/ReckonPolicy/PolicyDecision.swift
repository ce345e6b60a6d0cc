/// What a policy decided for one request.
public struct PolicyDecision: Hashable, Sendable {
  // The trace comes first so that it starts the value on a word: after the optionals' tag
  // bytes, copying a decision out of an evaluation moved it in unaligned parts that stalled.
  /// What the evaluation looked at, when a trace was asked for.
  public let trace: PolicyTrace?
  /// The index of the rule that decided, or nil when `otherwise` did.
  public let rule: Int?
  /// The deciding rule's (or `otherwise`'s) actions, with `set` values computed; with
  /// `holdForReview` added when a `hold` clause held the decision.
  public let actions: [DecidedAction]
  /// The index of the `hold` clause that held the decision, or nil when none did.
  public var hold: Int? = nil
}

/// One action of the deciding rule, ready for the application to apply.
public enum DecidedAction: Hashable, Sendable {
  /// The choosing action (`refund CHOICE` in App Store policies), with the choice's ordinal among
  /// the schema's choices and its name.
  case choose(ordinal: Int, name: String)
  case replyWithoutChoice
  case withholdReply
  case holdForReview
  /// `set FIELD = EXPR`; the value is nil when the expression read a missing fact.
  case set(field: FieldDescriptor, value: Value?)
}

extension DecidedAction {
  /// Whether this is `do not respond`: matched in place, where `==` would copy both sides.
  package var isWithholdReply: Bool {
    if case .withholdReply = self { true } else { false }
  }

  /// Whether this holds the decision for review.
  package var isHoldForReview: Bool {
    if case .holdForReview = self { true } else { false }
  }
}
