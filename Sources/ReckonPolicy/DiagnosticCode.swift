/// Stable codes for diagnostics, in the contract's form `P0104`.
extension DiagnosticID {
  /// The problem's stable code, printed with it (`error[P0301]`) and looked up with
  /// `reckon explain`: P01 lexical, P02 syntax, P03 names and types, P04 found by the host,
  /// P05 warnings. A code is never reused or renumbered; a new problem takes the next number of
  /// its group.
  public var code: String {
    switch self {
    case .unexpectedCharacter: "P0101"
    case .invalidNameCharacter: "P0102"
    case .moneySymbol: "P0103"
    case .characterInText: "P0104"
    case .curlyQuotes: "P0105"
    case .otherLanguageOperator: "P0106"
    case .unterminatedString: "P0107"
    case .unknownEscape: "P0108"
    case .invalidNumber: "P0109"
    case .invalidEncoding: "P0110"
    case .unsupportedLineBreak: "P0111"
    case .expectedToken: "P0201"
    case .expectedKeyword: "P0202"
    case .expectedDeclaration: "P0203"
    case .expectedList: "P0204"
    case .expectedActionSeparator: "P0205"
    case .missingThen: "P0206"
    case .emptyPolicyName: "P0207"
    case .invalidLetName: "P0208"
    case .expectedExpression: "P0209"
    case .unknownAction: "P0210"
    case .duplicateHeader: "P0211"
    case .declarationAfterOtherwise: "P0212"
    case .duplicateOtherwise: "P0213"
    case .chainedComparison: "P0214"
    case .listOutsideIn: "P0215"
    case .holdWithThen: "P0216"
    case .invalidDate: "P0217"
    case .nestingTooDeep: "P0218"
    case .unknownUnit: "P0219"
    case .unknownCurrency: "P0220"
    case .assignmentInCondition: "P0221"
    case .invalidRuleName: "P0222"
    case .notAPolicy: "P0223"
    case .testSyntax: "P0224"
    case .duplicateGiven: "P0225"
    case .conflictingExpectations: "P0226"
    case .unknownName: "P0301"
    case .letUsedBeforeDefinition: "P0302"
    case .namedListOutsideIn: "P0303"
    case .notAList: "P0304"
    case .bareEnumValue: "P0305"
    case .unknownFact: "P0306"
    case .givenLet: "P0307"
    case .unknownEnumValue: "P0308"
    case .unknownField: "P0309"
    case .unknownFunction: "P0310"
    case .duplicateLet: "P0311"
    case .letShadowsFact: "P0312"
    case .letShadowsValue: "P0313"
    case .duplicateRuleName: "P0314"
    case .typeMismatch: "P0315"
    case .conditionNotBoolean: "P0316"
    case .fieldTypeMismatch: "P0317"
    case .operatorTypeMismatch: "P0318"
    case .listTypeMismatch: "P0319"
    case .currencyMismatch: "P0320"
    case .invalidTestValue: "P0321"
    case .invalidExpectedValue: "P0322"
    case .invalidOperand: "P0323"
    case .invalidArguments: "P0324"
    case .percentOutOfRange: "P0325"
    case .conflictingActions: "P0326"
    case .fieldSetTwice: "P0327"
    case .actionGivenTwice: "P0328"
    case .actionWithoutReply: "P0329"
    case .holdWithoutAnswer: "P0330"
    case .followNotAnswer: "P0331"
    case .followUnguarded: "P0332"
    case .divisionByZero: "P0333"
    case .emptyPolicy: "P0334"
    case .unansweredRequests: "P0401"
    case .unreachableRule: "P0501"
    case .neverMatches: "P0502"
    case .shadowedRule: "P0503"
    case .unguardedOptionalFact: "P0504"
    case .proratedWithoutUsageBound: "P0505"
    case .refundForExcludedProduct: "P0506"
    case .constantPercentCondition: "P0507"
    case .answersWithoutConsent: "P0508"
    case .percentageAppleRefuses: "P0509"
    case .unusedLet: "P0510"
    case .setContradictsFacts: "P0511"
    case .singleCurrencyMoney: "P0512"
    case .mixedAndOr: "P0513"
    }
  }

  /// The id with `code`, e.g. `P0301`, `error[P0301]` or `unknown-fact`, case-insensitively;
  /// nil for none.
  public init?(codeOrName given: String) {
    // As `check` prints it too: `error[P0306]`, `warning[P0502]`.
    var text = given
    if text.hasSuffix("]"), let open = text.firstIndex(of: "[") {
      let severity = text[..<open].lowercased()
      if severity == "error" || severity == "warning" {
        text = String(text[text.index(after: open)..<text.index(before: text.endIndex)])
      }
    }
    let wanted = text.uppercased()
    guard
      let found = DiagnosticID.allCases.first(where: {
        $0.code == wanted || $0.rawValue == text.lowercased()
      })
    else { return nil }
    self = found
  }
}
