import ReckonPolicy

/// A short file that draws one problem, written in the App Store vocabulary: the catalogue's
/// example of each diagnostic, which `reckon explain` shows with what `reckon check` prints for
/// it.
public struct DiagnosticExample: Sendable {
  /// The problem it draws, and only it.
  public let id: DiagnosticID
  /// The policy text; empty for an example that is a tests file or raw bytes.
  public let policy: String
  /// Raw file contents, for problems a Swift string cannot hold, such as bytes that are not UTF-8.
  public var contents: [UInt8]? = nil
  /// A tests file, for the problems only a tests file can have; `policy` is then unused.
  public var tests: String? = nil

  /// An example of `id`.
  public init(id: DiagnosticID, policy: String, contents: [UInt8]? = nil, tests: String? = nil) {
    self.id = id
    self.policy = policy
    self.contents = contents
    self.tests = tests
  }

  /// The example of `id`, if the catalogue has one (a few problems only `reckon test` or the
  /// host finds, with examples of their own).
  public static func of(_ id: DiagnosticID) -> DiagnosticExample? {
    all.first { $0.id == id }
  }

  static let deepParentheses =
    String(repeating: "(", count: 101) + "true" + String(repeating: ")", count: 101)

  /// Every example, in catalogue order.
  public static let all: [DiagnosticExample] = [
    DiagnosticExample(
      id: .unexpectedCharacter,
      policy: "rule \"r\"\n  when !(reason == LEGAL)\n  then refund DECLINE"),
    DiagnosticExample(
      id: .unterminatedString,
      policy: "rule \"we failed\n  when delivery.status != DELIVERED\n  then refund GRANT_FULL"),
    DiagnosticExample(
      id: .invalidNumber,
      policy: "rule \"r\"\n  when customer.account_age < 90days\n  then refund DECLINE"),
    DiagnosticExample(
      id: .invalidEncoding, policy: "",
      contents: Array("rule \"caf".utf8) + [0xE9]
        + Array("\"\n  when true\n  then refund DECLINE".utf8)
    ),
    DiagnosticExample(
      id: .unknownEscape,
      policy: "rule \"caf\\u00e9\"\n  when true\n  then refund DECLINE"),
    DiagnosticExample(
      id: .unsupportedLineBreak,
      policy:
        "rule \"r\" when reason == LEGAL then refund DECLINE # legal\rrule \"s\" when true then refund GRANT_FULL\n"
    ),
    DiagnosticExample(
      id: .missingThen, policy: "rule \"r\"\n  when reason == LEGAL\n  refund DECLINE"),
    DiagnosticExample(
      id: .expectedToken, policy: "rule \"r\"\n  when (reason == LEGAL\n  then refund DECLINE"),
    DiagnosticExample(
      id: .expectedKeyword, policy: "rule \"r\"\n  wen reason == LEGAL\n  then refund DECLINE"),
    DiagnosticExample(
      id: .expectedDeclaration, policy: "when reason == LEGAL\n  then refund DECLINE"),
    DiagnosticExample(
      id: .expectedList, policy: "rule \"r\"\n  when reason in LEGAL\n  then refund DECLINE"),
    DiagnosticExample(
      id: .expectedActionSeparator,
      policy:
        "rule \"r\"\n  when reason == LEGAL\n  then refund DECLINE set sampleContentProvided = true"
    ),
    DiagnosticExample(id: .emptyPolicyName, policy: "policy \"\"\notherwise share data only"),
    DiagnosticExample(id: .invalidLetName, policy: "let rule = 1\notherwise share data only"),
    DiagnosticExample(
      id: .invalidNameCharacter,
      policy: "let café = 1\notherwise share data only"),
    DiagnosticExample(
      id: .moneySymbol, policy: "rule \"r\"\n  when purchase.price > $5\n  then refund DECLINE"),
    DiagnosticExample(
      id: .characterInText, policy: "rule \"a\tb\"\n  when reason == LEGAL\n  then refund DECLINE"),
    DiagnosticExample(
      id: .curlyQuotes,
      policy: "rule \u{201C}r\u{201D}\n  when reason == LEGAL\n  then refund DECLINE"),
    DiagnosticExample(
      id: .otherLanguageOperator,
      policy: "rule \"r\"\n  when reason == LEGAL && usage.consumed > 5%\n  then refund DECLINE"),
    DiagnosticExample(
      id: .unknownCurrency,
      policy: "rule \"r\"\n  when purchase.price > 5 XYZ\n  then refund DECLINE"),
    DiagnosticExample(
      id: .letUsedBeforeDefinition,
      policy: "rule \"r\"\n  when heavy\n  then refund DECLINE\nlet heavy = usage.consumed > 80%"),
    DiagnosticExample(
      id: .bareEnumValue, policy: "rule \"r\"\n  when LEGAL\n  then refund DECLINE"),
    DiagnosticExample(
      id: .conditionNotBoolean, policy: "rule \"r\"\n  when usage.consumed\n  then refund DECLINE"),
    DiagnosticExample(
      id: .fieldTypeMismatch,
      policy: "rule \"r\"\n  when reason == LEGAL\n  then set sampleContentProvided = 5%"),
    DiagnosticExample(
      id: .operatorTypeMismatch,
      policy: "rule \"r\"\n  when usage.consumed + customer.account_age > 5%\n  then refund DECLINE"
    ),
    DiagnosticExample(
      id: .currencyMismatch,
      policy: "rule \"r\"\n  when purchase.price > 5 EUR + 5 USD\n  then refund DECLINE"),
    DiagnosticExample(
      id: .listTypeMismatch,
      policy: "rule \"r\"\n  when reason in [LEGAL, 5]\n  then refund DECLINE"),
    DiagnosticExample(
      id: .fieldSetTwice,
      policy:
        "rule \"r\"\n  when reason == LEGAL\n  then set sampleContentProvided = true, set sampleContentProvided = false"
    ),
    DiagnosticExample(
      id: .actionGivenTwice,
      policy: "rule \"r\"\n  when reason == LEGAL\n  then refund DECLINE, refund DECLINE"),
    DiagnosticExample(
      id: .actionWithoutReply,
      policy:
        "rule \"r\"\n  when reason == LEGAL\n  then do not respond, set sampleContentProvided = true"
    ),
    DiagnosticExample(
      id: .expectedExpression, policy: "rule \"r\"\n  when reason ==\n  then refund DECLINE"),
    DiagnosticExample(
      id: .unknownAction, policy: "rule \"r\"\n  when reason == LEGAL\n  then refnd DECLINE"),
    DiagnosticExample(id: .duplicateHeader, policy: "policy \"one\"\nversion 1\npolicy \"two\""),
    DiagnosticExample(
      id: .declarationAfterOtherwise,
      policy:
        "otherwise share data only\n\nrule \"late\"\n  when reason == LEGAL\n  then refund GRANT_FULL"
    ),
    DiagnosticExample(
      id: .duplicateOtherwise, policy: "otherwise share data only\notherwise do not respond"),
    DiagnosticExample(
      id: .chainedComparison,
      policy: "rule \"r\"\n  when 0% < usage.consumed < 100%\n  then refund GRANT_PRORATED"),
    DiagnosticExample(
      id: .listOutsideIn,
      policy: "rule \"r\"\n  when [LEGAL, OTHER] == reason\n  then refund DECLINE"),
    DiagnosticExample(id: .nestingTooDeep, policy: "let deep = \(Self.deepParentheses)"),
    DiagnosticExample(id: .notAPolicy, policy: "{\n  \"apps\": []\n}\n"),
    DiagnosticExample(
      id: .unknownUnit,
      policy: "rule \"r\"\n  when customer.account_age < 1 month\n  then refund DECLINE"),
    DiagnosticExample(
      id: .assignmentInCondition,
      policy: "rule \"r\"\n  when usage.consumed = 5%\n  then refund DECLINE"),
    DiagnosticExample(
      id: .invalidRuleName,
      policy: "rule \"otherwise\"\n  when reason == LEGAL\n  then refund DECLINE"),
    DiagnosticExample(
      id: .unknownName,
      policy: "let used = usage.consumed\nrule \"r\"\n  when usd > 50%\n  then refund DECLINE"),
    DiagnosticExample(
      id: .unknownFact, policy: "rule \"r\"\n  when usage.consumd > 50%\n  then refund DECLINE"),
    DiagnosticExample(
      id: .unknownEnumValue,
      policy: "rule \"r\"\n  when reason in [LEGAL, FULFILMENT_ISSUE]\n  then refund DECLINE"),
    DiagnosticExample(
      id: .unknownField,
      policy: "rule \"r\"\n  when reason == LEGAL\n  then refund DECLINE, set sampleContent = true"),
    DiagnosticExample(
      id: .unknownFunction,
      policy: "rule \"r\"\n  when rnd(usage.consumed) > 50%\n  then refund DECLINE"),
    DiagnosticExample(id: .duplicateLet, policy: "let used = usage.consumed\nlet used = 50%"),
    DiagnosticExample(id: .letShadowsFact, policy: "let usage = usage.consumed"),
    DiagnosticExample(
      id: .letShadowsValue,
      policy:
        "let LEGAL = reason == OTHER\nrule \"r\"\n  when reason == LEGAL\n  then refund DECLINE"),
    DiagnosticExample(
      id: .duplicateRuleName,
      policy:
        "rule \"legal\"\n  when reason == LEGAL\n  then refund GRANT_FULL\n\nrule \"legal\"\n  when reason == OTHER\n  then refund DECLINE"
    ),
    DiagnosticExample(
      id: .typeMismatch, policy: "rule \"r\"\n  when usage.consumed >= 80\n  then refund DECLINE"),
    DiagnosticExample(
      id: .invalidOperand, policy: "rule \"r\"\n  when -customer.consented\n  then refund DECLINE"),
    DiagnosticExample(
      id: .invalidArguments,
      policy: "rule \"r\"\n  when max(usage.consumed) > 50%\n  then refund DECLINE"),
    DiagnosticExample(
      id: .percentOutOfRange,
      policy: "rule \"r\"\n  when usage.consumed > 120%\n  then refund DECLINE"),
    DiagnosticExample(
      id: .conflictingActions,
      policy: "rule \"r\"\n  when reason == LEGAL\n  then refund GRANT_FULL, do not respond"),
    DiagnosticExample(
      id: .divisionByZero,
      policy: "rule \"r\"\n  when customer.refunds_last_90_days / 0 > 1\n  then refund DECLINE"),
    DiagnosticExample(
      id: .emptyPolicy, policy: "# refunds: to be written\nlet used = usage.consumed\n"),
    DiagnosticExample(
      id: .unreachableRule,
      policy:
        "rule \"everyone\"\n  when true\n  then refund DECLINE\n\nrule \"legal\"\n  when reason == LEGAL\n  then refund GRANT_FULL"
    ),
    DiagnosticExample(
      id: .neverMatches, policy: "rule \"never\"\n  when 2 < 1\n  then refund DECLINE"),
    DiagnosticExample(
      id: .shadowedRule,
      policy: """
        rule "legal"
          when reason == LEGAL
          then refund GRANT_FULL

        rule "legal and used"
          when reason == LEGAL and usage.consumed > 50%
          then refund DECLINE
        """),
    DiagnosticExample(
      id: .unguardedOptionalFact,
      policy: "rule \"idle\"\n  when now - usage.last_used > 30 days\n  then refund GRANT_FULL"),
    DiagnosticExample(
      id: .proratedWithoutUsageBound,
      policy: "rule \"partly\"\n  when product.type == CONSUMABLE\n  then refund GRANT_PRORATED"),
    DiagnosticExample(
      id: .refundForExcludedProduct,
      policy: """
        rule "subscriptions are not ours to judge"
          when product.type == AUTO_RENEWABLE
          then share data only

        rule "non-consumables are final"
          when product.type == NON_CONSUMABLE
          then do not respond

        rule "refund accidental purchases"
          when product.type in [AUTO_RENEWABLE, NON_CONSUMABLE] and reason == UNINTENDED_PURCHASE
          then refund GRANT_FULL
        """),
    DiagnosticExample(
      id: .constantPercentCondition,
      policy:
        "rule \"any use\"\n  when usage.consumed >= 0% and reason == LEGAL\n  then refund DECLINE"),
    DiagnosticExample(
      id: .answersWithoutConsent,
      policy: "rule \"goodwill\"\n  when customer.consented == false\n  then refund GRANT_FULL"),
    DiagnosticExample(
      id: .percentageAppleRefuses,
      policy:
        "rule \"subscriptions\"\n  when product.type == AUTO_RENEWABLE\n  then refund DECLINE, set consumptionPercentage = 50%"
    ),
    DiagnosticExample(
      id: .duplicateGiven, policy: "",
      tests: """
        test "heavy use"
          given usage.consumed = 94%
          given usage.consumed = 40%
          expect refund DECLINE
        """),
    DiagnosticExample(
      id: .conflictingExpectations, policy: "",
      tests: """
        test "heavy use"
          given usage.consumed = 94%
          expect refund DECLINE, share data only
        """),
    DiagnosticExample(
      id: .invalidDate,
      policy: "rule \"r\"\n  when purchase.date >= 2026-02-30\n  then refund DECLINE"),
    DiagnosticExample(
      id: .namedListOutsideIn,
      policy:
        "let packs = [\"com.example.coins.100\"]\nrule \"r\"\n  when product.id == packs\n  then refund DECLINE"
    ),
    DiagnosticExample(
      id: .notAList,
      policy:
        "let pack = \"com.example.coins.100\"\nrule \"r\"\n  when product.id in pack\n  then refund DECLINE"
    ),
    DiagnosticExample(
      id: .holdWithThen,
      policy: "hold \"big purchases\"\n  when purchase.price > 50 USD\n  then refund DECLINE"),
    DiagnosticExample(
      id: .holdWithoutAnswer,
      policy: "rule \"big purchases\"\n  when purchase.price > 50 USD\n  then hold for review"),
    DiagnosticExample(
      id: .followNotAnswer,
      policy: "rule \"r\"\n  when reason == LEGAL\n  then follow delivery.status"),
    DiagnosticExample(
      id: .followUnguarded,
      policy: "rule \"support said so\"\n  when reason == LEGAL\n  then follow customer.override"),
    DiagnosticExample(
      id: .setContradictsFacts,
      policy:
        "rule \"we failed\"\n  when delivery.status != DELIVERED\n  then refund GRANT_FULL, set deliveryStatus = DELIVERED"
    ),
    DiagnosticExample(
      id: .singleCurrencyMoney,
      policy:
        "rule \"expensive\"\n  when purchase.price is not missing and purchase.price > 50 USD\n  then refund DECLINE"
    ),
    DiagnosticExample(
      id: .unusedLet,
      policy:
        "let heavy = usage.consumed > 80%\nrule \"r\"\n  when reason == LEGAL\n  then refund DECLINE"
    ),
    DiagnosticExample(
      id: .mixedAndOr,
      policy:
        "rule \"r\"\n  when reason == LEGAL or reason == FULFILLMENT_ISSUE and usage.consumed < 10%\n  then refund GRANT_FULL"
    ),
    DiagnosticExample(
      id: .testSyntax, policy: "",
      tests: """
        test "heavy use"
          given usage.consumed 94%
          expect refund DECLINE
        """),
  ]
}
