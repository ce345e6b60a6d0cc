/// The catalogue of problems: for each id, how bad it is and what it means, in one line. A
/// switch over every id, so a new id does not build until it has its entry.
extension DiagnosticID {
  /// Whether the problem stops a policy (or tests file) from loading.
  public var severity: Diagnostic.Severity {
    switch self {
    case .unreachableRule, .neverMatches, .shadowedRule, .unguardedOptionalFact,
      .proratedWithoutUsageBound, .refundForExcludedProduct, .constantPercentCondition,
      .answersWithoutConsent, .percentageAppleRefuses, .unusedLet, .mixedAndOr,
      .setContradictsFacts, .singleCurrencyMoney:
      .warning
    default: .error
    }
  }

  /// What the problem is, in one line, for listings and `explain`.
  public var summary: String {
    switch self {
    case .unexpectedCharacter: "a character the language does not use"
    case .invalidNameCharacter: "a name with letters other than a–z, A–Z, 0–9 and _"
    case .moneySymbol: "money written with a currency symbol instead of its code"
    case .characterInText: "a tab or control character inside quoted text"
    case .curlyQuotes: "text between curly quotes instead of straight double quotes"
    case .otherLanguageOperator: "an operator from another language, such as && or <>"
    case .unterminatedString: "quoted text with no closing quote on its line"
    case .unknownEscape: "a backslash escape the language does not define"
    case .invalidNumber: "a number that cannot be read"
    case .invalidEncoding: "a file that is not UTF-8"
    case .unsupportedLineBreak: "a line break other than LF or CRLF"
    case .expectedToken: "a word or symbol other than the one the syntax needs here"
    case .expectedKeyword: "a keyword missing where the syntax needs it"
    case .expectedDeclaration:
      "something other than 'rule', 'hold', 'let' or 'otherwise' at the top level"
    case .expectedList: "'in' without a list in brackets after it"
    case .expectedActionSeparator: "two actions of a rule without a comma between them"
    case .missingThen: "a rule whose condition is not followed by 'then'"
    case .emptyPolicyName: "a policy header with an empty name"
    case .invalidLetName: "a 'let' named with a keyword or a dotted name"
    case .expectedExpression: "a condition or value missing where one is needed"
    case .unknownAction: "an action the vocabulary does not define"
    case .duplicateHeader: "a header line (policy, version) given twice"
    case .declarationAfterOtherwise: "a rule or 'let' after 'otherwise', which is never tried"
    case .duplicateOtherwise: "more than one 'otherwise'"
    case .chainedComparison: "comparisons chained as in a < b < c"
    case .listOutsideIn: "a list anywhere but after 'in' or 'not in', or as a let's whole value"
    case .invalidDate: "a date or time that is not a real UTC day or time"
    case .holdWithThen: "a 'hold' clause with a 'then': a hold never decides"
    case .nestingTooDeep: "a condition or expression nested deeper than the language allows"
    case .unknownUnit: "a unit the language does not know after a number"
    case .unknownCurrency: "money in a currency code that is not ISO 4217"
    case .assignmentInCondition: "'=' in a condition where '==' was meant"
    case .invalidRuleName: "a rule without a name, or named 'otherwise'"
    case .notAPolicy: "a file of another kind (JSON, a tests file) given as a policy"
    case .testSyntax: "a line of a tests file that cannot be read"
    case .duplicateGiven: "a fact given twice in one test"
    case .conflictingExpectations: "expectations in one test that cannot all hold"
    case .unknownName: "a name that is no fact, let or value"
    case .letUsedBeforeDefinition: "a 'let' used above the line that defines it"
    case .namedListOutsideIn: "a named list used anywhere but after 'in' or 'not in'"
    case .notAList: "a name after 'in' that is not a named list"
    case .bareEnumValue: "a value such as LEGAL with nothing saying what it is a value of"
    case .unknownFact: "a fact the schema does not have"
    case .givenLet: "a test giving a value to a 'let' instead of to the facts it reads"
    case .unknownEnumValue: "a value its fact does not have"
    case .unknownField: "a body field a rule cannot set"
    case .unknownFunction: "a function the language does not have"
    case .duplicateLet: "two 'let's with one name"
    case .letShadowsFact: "a 'let' named like a fact"
    case .letShadowsValue: "a 'let' named like a value"
    case .duplicateRuleName: "two rules with one name"
    case .typeMismatch: "a comparison of two kinds of value that cannot be compared"
    case .conditionNotBoolean: "a condition that is not true or false"
    case .fieldTypeMismatch: "a body field set to the wrong kind of value"
    case .operatorTypeMismatch: "an arithmetic operator applied to values it does not take"
    case .listTypeMismatch: "a list item of another kind than the value it is tested against"
    case .currencyMismatch: "amounts in two currencies combined or compared"
    case .invalidTestValue: "a value given in a test that its fact cannot hold"
    case .invalidExpectedValue: "an expected body value that no decision could produce"
    case .invalidOperand: "an operator applied to a value it does not take"
    case .invalidArguments: "a function called with the wrong arguments"
    case .percentOutOfRange: "a percentage outside 0% to 100%"
    case .conflictingActions: "two actions of one rule that contradict each other"
    case .fieldSetTwice: "a body field set twice in one rule"
    case .actionGivenTwice: "the same action given twice in one rule"
    case .actionWithoutReply:
      "an action beside the one that withholds the reply, which sends nothing"
    case .holdWithoutAnswer: "'hold for review' alone, which says nothing of what to hold"
    case .followNotAnswer: "'follow' of a fact whose values are not all answers"
    case .followUnguarded: "'follow' of a fact the rule does not test is there"
    case .divisionByZero: "a division by a constant zero"
    case .emptyPolicy: "a policy with no rules and no 'otherwise'"
    case .unreachableRule: "a rule never tried, because a rule above always matches"
    case .neverMatches: "a rule or hold whose condition can never hold"
    case .shadowedRule: "a rule that never decides, because rules above match first"
    case .unguardedOptionalFact: "a fact a request may lack, read without a guard"
    case .proratedWithoutUsageBound: "a prorated refund the store refuses without a usage bound"
    case .refundForExcludedProduct:
      "a refund preference for product types whose every request a rule above already decides"
    case .constantPercentCondition: "a percentage condition that is always or never true"
    case .answersWithoutConsent:
      "a rule that matches only without the customer's consent, so its reply is never sent"
    case .unansweredRequests:
      "a policy under which no request of a product type and delivery status gets a reply"
    case .percentageAppleRefuses: "a consumption percentage the store refuses for this request"
    case .unusedLet: "a 'let' that nothing uses"
    case .singleCurrencyMoney: "money compared with amounts in one currency, without rates"
    case .setContradictsFacts: "a 'set' that tells the store what the rule's own condition denies"
    case .mixedAndOr: "'and' and 'or' in one condition without parentheses"
    }
  }
}
