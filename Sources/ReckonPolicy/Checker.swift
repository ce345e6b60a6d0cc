/// Checks a syntax tree against a schema: resolves names, types every expression, folds constants,
/// and reports every problem. Produces a `CheckedPolicy` only when there is no error.
public struct Checker {
  /// How deep an expression may nest counting the lets it uses (`expandedDepth`). Evaluation,
  /// explanation and the lints recurse once per level; this stays well below the depth that
  /// overflows the smallest thread stack a policy is evaluated on (see docs/language.md).
  static let maximumExpandedDepth = 1_200

  let schema: PolicySchema
  let source: SourceFile
  private(set) var diagnostics: [Diagnostic] = []
  var lets: [CheckedLet] = []
  /// Every `let` name in the file with its position among the lets, for "defined later" messages.
  var declaredLets: [String: (index: Int, span: SourceSpan)] = [:]
  /// The lets whose value had an error: uses of them are not reported again.
  var failedLets: Set<Int> = []
  /// The lets that name a list (`let packs = [...]`), with its items as written: they are
  /// typed where the list is used, against the value tested, as a list written there would be.
  var namedLists: [Int: [Expression]] = [:]
  /// The lets some rule, let or action uses, for the unused-let warning.
  var usedLets: Set<Int> = []
  /// The custom facts reported unknown: one fix (declaring it, or `--config`) mends every use,
  /// so each is reported once.
  var unknownCustomFacts: Set<String> = []
  var nodeSpans: [SourceSpan] = []
  var nodeTypes: [ValueType] = []
  /// How many lets have been checked so far; a let may only use those before it.
  var letsDefined = 0
  /// Each checked let's depth with the lets it uses expanded (`expandedDepth`), worked out once so
  /// a chain of lets costs one step per let.
  var letDepths: [Int] = []
  /// Each checked let's currency whatever the facts (`staticCurrency`), worked out once for the
  /// same reason: a let built from two uses of the one before would otherwise be walked 2^N times.
  var letCurrencies: [String?] = []

  /// Creates a checker for one file.
  public init(schema: PolicySchema, source: SourceFile) {
    self.schema = schema
    self.source = source
  }

  /// Checks a whole policy; the policy is nil when any error was found.
  public static func check(_ syntax: PolicySyntax, schema: PolicySchema, source: SourceFile) -> (
    policy: CheckedPolicy?, diagnostics: [Diagnostic]
  ) {
    var checker = Checker(schema: schema, source: source)
    let policy = checker.checkPolicy(syntax)
    return (policy, checker.diagnostics)
  }

  mutating func checkPolicy(_ syntax: PolicySyntax) -> CheckedPolicy? {
    collectLetNames(syntax.lets)
    var rules: [CheckedRule] = []
    var holds: [CheckedHold] = []
    var ruleNames: [String: SourceSpan] = [:]
    var holdNames: [String: SourceSpan] = [:]
    var sound = true
    for declaration in syntax.declarations {
      switch declaration {
      case .header:
        continue
      case .let(let declaration):
        sound = checkLet(declaration) && sound
      case .rule(let rule):
        // An empty or reserved name is already an error of its own.
        if let earlier = ruleNames[rule.name.value], Parser.isUsableRuleName(rule.name.value) {
          let line = source.location(of: earlier.start).line
          report(
            .duplicateRuleName,
            "another rule is already called '\(rule.name.value)' (line \(line))",
            at: rule.name.span,
            hint: "give each rule its own name, so decisions say which one decided")
        }
        // The first definition is the one to cite, however many copies follow it.
        if ruleNames[rule.name.value] == nil { ruleNames[rule.name.value] = rule.name.span }
        if let checked = checkRule(rule) { rules.append(checked) } else { sound = false }
      case .hold(let hold):
        if let earlier = holdNames[hold.name.value], !hold.name.value.isEmpty {
          let line = source.location(of: earlier.start).line
          report(
            .duplicateRuleName,
            "another hold is already called '\(hold.name.value)' (line \(line))",
            at: hold.name.span, hint: "give each hold its own name: held decisions name it")
        }
        if holdNames[hold.name.value] == nil { holdNames[hold.name.value] = hold.name.span }
        if let condition = checkCondition(
          hold.condition, what: "the condition of hold '\(hold.name.value)'"),
          isWithinDepthLimit(condition, at: hold.name.span, what: "hold '\(hold.name.value)'")
        {
          holds.append(
            CheckedHold(name: hold.name.value, condition: condition, nameSpan: hold.name.span))
        } else {
          sound = false
        }
      case .otherwise:
        continue
      }
    }
    sound = checkUnusedNamedLists() && sound
    var otherwise =
      syntax.otherwise.map { checkActions($0.actions, ruleSpan: $0.span) } ?? [.replyWithoutChoice]
    if let actions = otherwise, let clause = syntax.otherwise,
      !checkFollowGuards(actions, condition: nil, at: clause.span, what: "otherwise")
    {
      otherwise = nil
    }
    guard sound, let otherwise, !diagnostics.contains(where: \.isError) else { return nil }
    let policy = CheckedPolicy(
      name: syntax.name?.value ?? Checker.fileStem(source.path), version: syntax.version?.value,
      summary: syntax.summary?.value, lets: lets, rules: rules, otherwise: otherwise, holds: holds,
      otherwiseSpan: syntax.otherwise?.span, schema: schema, source: source, nodeSpans: nodeSpans,
      nodeTypes: nodeTypes)
    diagnostics += syntaxWarnings(syntax) + Self.warnings(policy)
    return policy
  }

  /// The warnings of a policy that checked. The lints and the deeper analysis can both find a
  /// rule that never decides (by the same conditions, or by narrower ranges, through lets they
  /// read differently); a rule gets one such warning, the lints'.
  static func warnings(_ policy: CheckedPolicy) -> [Diagnostic] {
    let lints = PolicyLints(policy: policy).warnings()
    let shadowed = Set(lints.filter { $0.id == .shadowedRule }.map(\.span))
    return lints
      + PolicyAnalysis(policy: policy).warnings().filter {
        $0.id != .shadowedRule || !shadowed.contains($0.span)
      }
  }

  /// The error for a file with no rule, hold or `otherwise` (empty, or only comments, headers
  /// and lets), which would send every request to the implicit reply without a choice: almost
  /// surely the wrong file or an unfinished one, which `reckon check` must not pass. Nil when a
  /// rule or `otherwise` decides, or a hold says which of those implicit replies wait for a
  /// person: a file of holds alone is written on purpose.
  static func nothingDecides(_ syntax: PolicySyntax, vocabulary: PolicyVocabulary) -> Diagnostic? {
    guard syntax.otherwise == nil else { return nil }
    for declaration in syntax.declarations {
      switch declaration {
      case .rule, .hold: return nil
      default: continue
      }
    }
    return Diagnostic(
      .emptyPolicy, .error,
      "the file has no rules, holds or otherwise: every request would be answered "
        + "'\(vocabulary.replyWithoutChoice.text)' by a file that says nothing",
      at: SourceSpan(start: 0, end: 0),
      hint:
        "add a rule, or an 'otherwise' line such as: otherwise \(vocabulary.replyWithoutChoice.text)"
    )
  }

  private mutating func collectLetNames(_ declarations: [LetDeclaration]) {
    let roots = schema.factRoots
    for (index, declaration) in declarations.enumerated() where !declaration.name.value.isEmpty {
      let name = declaration.name
      if let earlier = declaredLets[name.value] {
        let line = source.location(of: earlier.span.start).line
        report(
          .duplicateLet, "'\(name.value)' is already defined on line \(line)", at: name.span,
          hint: "use another name")
      } else if schema.fact(named: name.value) != nil {
        report(
          .letShadowsFact, "'\(name.value)' is already the name of a fact", at: name.span,
          hint: "use another name")
      } else if roots.contains(name.value) {
        report(
          .letShadowsFact,
          "'\(name.value)' is already the name of facts, as in \(exampleFact(under: name.value))",
          at: name.span, hint: "use another name")
      } else if let fact = factHavingValue(name.value) {
        report(
          .letShadowsValue,
          "'\(name.value)' is a value of \(fact), which a let of this name would hide",
          at: name.span, hint: "use another name, such as '\(name.value.lowercased())'")
      } else {
        declaredLets[name.value] = (index, name.span)
      }
    }
  }

  /// The first fact with `value` among its enumeration values: a let of that name would turn
  /// `reason == LEGAL` into a comparison with the let.
  func factHavingValue(_ value: String) -> String? {
    schema.facts.first { fact in
      if case .enumeration(let type) = fact.type { return type.cases.contains(value) }
      return false
    }?.name
  }

  private func exampleFact(under root: String) -> String {
    schema.facts.first { $0.name == root || $0.name.hasPrefix(root + ".") }?.name ?? root
  }

  private mutating func checkLet(_ declaration: LetDeclaration) -> Bool {
    defer { letsDefined += 1 }
    if case .list(let elements) = declaration.value.kind {
      // Its items are checked where it is used; the slot keeps the lets' indices in step.
      namedLists[lets.count] = elements
      appendPlaceholder(declaration)
      lets[lets.count - 1].isNamedList = true
      return true
    }
    let value = checkExpression(declaration.value, expected: nil)
    guard let value,
      isWithinDepthLimit(value, at: declaration.name.span, what: "'\(declaration.name.value)'")
    else {
      // Keep the slot so later references resolve, and mark it so they do not report again.
      failedLets.insert(lets.count)
      appendPlaceholder(declaration)
      return false
    }
    lets.append(CheckedLet(name: declaration.name.value, value: value, span: declaration.span))
    letDepths.append(expandedDepth(value))
    letCurrencies.append(staticCurrency(value))
    return true
  }

  /// A named list nothing tests a value against is still checked, as far as it can be without
  /// that value: each item checks, a bare word is some fact's value, and the items are of one
  /// kind (words one fact takes all of). A list used is checked where it is used.
  private mutating func checkUnusedNamedLists() -> Bool {
    var sound = true
    for index in namedLists.keys.sorted() where !usedLets.contains(index) {
      var typed: [(type: ValueType, span: SourceSpan)] = []
      var words: [(word: String, span: SourceSpan)] = []
      for element in namedLists[index] ?? [] {
        if isSymbol(element), case .name(let word) = element.kind {
          guard factHavingValue(word) != nil else {
            report(
              .unknownEnumValue, "'\(word)' is no fact's value", at: element.span,
              hint: Suggestions.closest(to: word, among: enumCases).map { "did you mean '\($0)'?" })
            sound = false
            continue
          }
          words.append((word, element.span))
        } else if let value = checkExpression(element, expected: nil) {
          typed.append((value.type, element.span))
        } else {
          sound = false
        }
      }
      var mismatch: (String, SourceSpan)?
      if let value = typed.first, let word = words.first {
        mismatch = (
          "\(value.type.withArticle) and a value such as \(word.word)",
          value.span.start > word.span.start ? value.span : word.span
        )
      } else if let first = typed.first, let odd = typed.first(where: { $0.type != first.type }) {
        mismatch = ("\(first.type.withArticle) and \(odd.type.withArticle)", odd.span)
      } else if let odd = firstWordNoFactTakesWithThoseBefore(words.map(\.word)) {
        let named = words[...odd].map(\.word)
        mismatch = (
          odd == 1
            ? "\(named[0]) and \(named[1]), which no one fact takes both of"
            : "\(named.dropLast().joined(separator: ", ")) and \(named[odd]), which no one fact "
              + "takes all of",
          words[odd].span
        )
      }
      if let (holds, span) = mismatch {
        report(
          .listTypeMismatch, "the list '\(lets[index].name)' holds \(holds)", at: span,
          hint: "a list holds values of one kind, as the fact it is tested against")
        sound = false
      }
    }
    return sound
  }

  /// The index of the first word that no enumeration fact takes together with every word before
  /// it, or nil when one fact takes them all.
  private func firstWordNoFactTakesWithThoseBefore(_ words: [String]) -> Int? {
    var candidates = schema.facts.compactMap { fact -> EnumType? in
      if case .enumeration(let type) = fact.type { return type }
      return nil
    }
    for (index, word) in words.enumerated() {
      candidates.removeAll { !$0.cases.contains(word) }
      if candidates.isEmpty, index > 0 { return index }
    }
    return nil
  }

  /// A let's slot with no value of its own: a named list, or a let whose value had an error.
  private mutating func appendPlaceholder(_ declaration: LetDeclaration) {
    lets.append(
      CheckedLet(
        name: declaration.name.value,
        value: constant(.boolean(false), .boolean, declaration.span), span: declaration.span))
    letDepths.append(1)
    letCurrencies.append(nil)
  }

  /// How deep an expression nests once every let it uses is replaced by its value. Evaluating,
  /// explaining and linting recurse that deep, so it is bounded like the parser's nesting.
  func expandedDepth(_ expression: ResolvedExpression) -> Int {
    if case .letReference(let index) = expression.kind { return 1 + letDepths[index] }
    return 1 + (expression.children.lazy.map(expandedDepth).max() ?? 0)
  }

  /// Reports an expression that nests deeper than `Checker.maximumExpandedDepth` through lets.
  mutating func isWithinDepthLimit(
    _ expression: ResolvedExpression, at span: SourceSpan, what: String
  ) -> Bool {
    let depth = expandedDepth(expression)
    guard depth > Checker.maximumExpandedDepth else { return true }
    report(
      .nestingTooDeep,
      "\(what) nests \(depth) levels deep counting the lets it uses, more than \(Checker.maximumExpandedDepth)",
      at: span,
      hint: "compute it from fewer lets in a row, e.g. by writing several steps in one let")
    return false
  }

  private mutating func checkRule(_ rule: RuleDeclaration) -> CheckedRule? {
    let condition = checkCondition(
      rule.condition, what: "the condition of rule '\(rule.name.value)'")
    let actions = checkActions(rule.actions, ruleSpan: rule.span)
    guard let condition, let actions, !rule.actions.isEmpty,
      isWithinDepthLimit(
        condition, at: rule.condition.span, what: "the condition of rule '\(rule.name.value)'"),
      checkFollowGuards(
        actions, condition: condition, at: rule.name.span, what: "rule '\(rule.name.value)'")
    else { return nil }
    return CheckedRule(
      name: rule.name.value, condition: condition, actions: actions, span: rule.span,
      nameSpan: rule.name.span)
  }

  mutating func checkCondition(_ expression: Expression, what: String) -> ResolvedExpression? {
    guard let condition = checkExpression(expression, expected: .boolean) else { return nil }
    guard condition.type == .boolean else {
      report(
        .conditionNotBoolean,
        "\(what) must be true or false, but this is \(condition.type.withArticle)",
        at: expression.span,
        hint: "compare it with something, as in "
          + Checker.comparisonExample(source.text(of: expression.span), condition.type))
      return nil
    }
    return condition
  }

  /// A comparison that type-checks for a value of `type`, so the hint can be copied as it is.
  static func comparisonExample(_ text: String, _ type: ValueType) -> String {
    switch type {
    case .percent: "\(text) > 0%"
    case .money: "\(text) > 4.99 USD"
    case .duration: "\(text) > 30 days"
    case .timestamp: "now - \(text) > 30 days"
    case .text: "\(text) == \"com.example.coins\""
    case .enumeration(let type): "\(text) == \(type.cases.first ?? "VALUE")"
    case .boolean, .number, .list: "\(text) > 0"
    }
  }

  // MARK: Actions

  private mutating func checkActions(_ actions: [Action], ruleSpan: SourceSpan) -> [CheckedAction]?
  {
    var checked: [CheckedAction] = []
    var outcome: (action: CheckedAction, phrase: String, span: SourceSpan)?
    var fieldsSet: Set<String> = []
    var holds = false
    var sound = true
    for action in actions {
      guard let resolved = checkAction(action) else {
        sound = false
        continue
      }
      if let phrase = outcomePhrase(resolved) {
        if let earlier = outcome {
          reportConflict(phrase, earlier.phrase, at: action.span)
          sound = false
        }
        outcome = (resolved, phrase, action.span)
      }
      if resolved == .holdForReview {
        if holds {
          let phrase = schema.vocabulary.holdForReview.text
          reportConflict(phrase, phrase, at: action.span)
          sound = false
        }
        holds = true
      }
      if case .set(let field, _) = resolved, !fieldsSet.insert(field.name).inserted {
        report(
          .fieldSetTwice, "'\(field.name)' is set twice in the same rule", at: action.span,
          hint: "keep one")
        sound = false
      }
      checked.append(resolved)
    }
    if outcome == nil, holds, sound,
      let hold = actions.first(where: { $0.kind == .holdForReview })
    {
      let words = schema.vocabulary
      report(
        .holdWithoutAnswer,
        "'\(words.holdForReview.text)' needs to say what is held: the rule decides nothing else",
        at: hold.span,
        hint:
          "write \(words.replyWithoutChoice.text), \(words.holdForReview.text) or \(words.choose.text) \(words.examples.decline), \(words.holdForReview.text); to hold whatever the rules decide, write a clause of its own: hold \"NAME\" when CONDITION"
      )
      sound = false
    }
    if outcome?.action == .withholdReply,
      let other = actions.first(where: { isSendingDetail($0) })
    {
      let withhold = schema.vocabulary.withholdReply.text
      report(
        .actionWithoutReply,
        "nothing is sent when a rule says '\(withhold)', so this action has no effect",
        at: other.span, hint: "remove it, or remove '\(withhold)'")
      sound = false
    }
    return sound ? checked : nil
  }

  private mutating func reportConflict(_ phrase: String, _ earlier: String, at span: SourceSpan) {
    let words = schema.vocabulary
    if phrase == earlier {
      report(
        .actionGivenTwice, "'\(phrase)' is given twice in the same rule", at: span,
        hint: "keep one")
    } else {
      report(
        .conflictingActions, "'\(phrase)' conflicts with '\(earlier)' in the same rule", at: span,
        hint:
          "a rule either \(words.choose.doing), \(words.replyWithoutChoice.doing), or \(words.withholdReply.doing): keep one"
      )
    }
  }

  private func outcomePhrase(_ action: CheckedAction) -> String? {
    switch action {
    case .choose(_, let name): "\(schema.vocabulary.choose.text) \(name)"
    case .replyWithoutChoice: schema.vocabulary.replyWithoutChoice.text
    case .withholdReply: schema.vocabulary.withholdReply.text
    case .follow(let slot, _): "follow \(schema.facts[slot].name)"
    case .holdForReview, .set: nil
    }
  }

  private func isSendingDetail(_ action: Action) -> Bool {
    switch action.kind {
    case .holdForReview, .set: true
    default: false
    }
  }

  private mutating func checkAction(_ action: Action) -> CheckedAction? {
    switch action.kind {
    case .choose(let choice):
      guard let ordinal = schema.refundChoices.ordinal(of: choice.value) else {
        let hint =
          schema.vocabulary.otherWords[choice.value]
          ?? Suggestions.closest(to: choice.value, among: schema.refundChoices.cases).map {
            "did you mean '\($0)'?"
          }
          ?? "choose one of \(schema.refundChoices.cases.joined(separator: ", "))"
        report(
          .unknownEnumValue, "unknown \(schema.vocabulary.choiceNoun) '\(choice.value)'",
          at: choice.span,
          hint: hint)
        return nil
      }
      return .choose(ordinal: ordinal, name: choice.value)
    case .replyWithoutChoice: return .replyWithoutChoice
    case .withholdReply: return .withholdReply
    case .holdForReview: return .holdForReview
    case .set(let fieldName, let expression):
      return checkSet(fieldName, expression)
    case .follow(let fact):
      return checkFollow(fact)
    }
  }

  /// `follow FACT`: every value of the fact must be an answer (a choice, or the vocabulary's
  /// values for replying without one and for not replying), so whatever it holds is one.
  private mutating func checkFollow(_ fact: Located<String>) -> CheckedAction? {
    let words = schema.vocabulary
    guard let slot = schema.slot(ofFact: fact.value) else {
      let hint = Suggestions.closest(to: fact.value, among: schema.facts.map(\.name)).map {
        "did you mean '\($0)'?"
      }
      report(.unknownFact, "unknown fact '\(fact.value)'", at: fact.span, hint: hint)
      return nil
    }
    let hint = "follow a fact whose values are answers, such as \(words.examples.optionalFact)"
    guard case .enumeration(let type) = schema.facts[slot].type else {
      report(
        .followNotAnswer,
        "'\(fact.value)' cannot be followed: it holds \(schema.facts[slot].type.withArticle), not an answer",
        at: fact.span, hint: hint)
      return nil
    }
    var answers: [CheckedAction] = []
    for name in type.cases {
      if let ordinal = schema.refundChoices.ordinal(of: name) {
        answers.append(.choose(ordinal: ordinal, name: name))
      } else if name == words.followWithoutChoice {
        answers.append(.replyWithoutChoice)
      } else if name == words.followWithhold {
        answers.append(.withholdReply)
      } else {
        report(
          .followNotAnswer, "'\(fact.value)' cannot be followed: its value \(name) is no answer",
          at: fact.span, hint: hint)
        return nil
      }
    }
    return .follow(slot: slot, answers: answers)
  }

  /// A rule that follows a fact must test that the fact is there: a request without it would
  /// otherwise have no answer from the rule.
  mutating func checkFollowGuards(
    _ actions: [CheckedAction], condition: ResolvedExpression?, at span: SourceSpan,
    what: String
  ) -> Bool {
    var sound = true
    for case .follow(let slot, _) in actions {
      let name = schema.facts[slot].name
      if let condition, Self.guardsPresence(of: slot, condition, lets: lets) { continue }
      report(
        .followUnguarded, "\(what) follows \(name) without testing that it is there",
        at: span,
        hint: condition == nil
          ? "follow it in a rule of its own: rule \"NAME\" when \(name) is not missing then follow \(name)"
          : "add 'and \(name) is not missing' to the condition")
      sound = false
    }
    return sound
  }

  /// Whether `condition` is true only when the fact at `slot` is present: one of its `and`
  /// parts (through lets) is `FACT is not missing`.
  static func guardsPresence(
    of slot: Int, _ condition: ResolvedExpression, lets: [CheckedLet]
  ) -> Bool {
    switch condition.kind {
    case .missingTest(negated: true, let subject):
      if case .fact(slot) = subject.kind { return true }
      return false
    case .and(let left, let right):
      return guardsPresence(of: slot, left, lets: lets)
        || guardsPresence(of: slot, right, lets: lets)
    case .letReference(let index):
      return guardsPresence(of: slot, lets[index].value, lets: lets)
    default:
      return false
    }
  }

  private mutating func checkSet(_ fieldName: Located<String>, _ expression: Expression)
    -> CheckedAction?
  {
    guard let field = schema.settableField(named: fieldName.value) else {
      let names = schema.settableFields.map(\.name)
      let hint =
        Suggestions.closest(to: fieldName.value, among: names).map { "did you mean '\($0)'?" }
        ?? "a rule can set \(names.joined(separator: ", "))"
      report(
        .unknownField, "'\(fieldName.value)' is not a body field a rule can set",
        at: fieldName.span, hint: hint)
      return nil
    }
    guard let value = checkExpression(expression, expected: field.type, context: field.name) else {
      return nil
    }
    guard value.type == field.type else {
      report(
        .fieldTypeMismatch,
        "\(field.name) takes \(field.type.withArticle), but this is \(value.type.withArticle)",
        at: expression.span,
        hint: field.type == .percent && value.type == .number
          ? "write a percentage with %, as in 40%" : nil)
      return nil
    }
    if case .percent(let percent) = value.constantValue, !(0...100).contains(percent) {
      report(.percentOutOfRange, "\(field.name) must be between 0% and 100%", at: expression.span)
      return nil
    }
    guard isWithinDepthLimit(value, at: expression.span, what: "the value of \(field.name)") else {
      return nil
    }
    return .set(field: field, value: value)
  }

  // MARK: Helpers

  mutating func report(
    _ id: DiagnosticID, _ message: String, at span: SourceSpan, hint: String? = nil
  ) {
    diagnostics.append(Diagnostic(id, .error, message, at: span, hint: hint))
  }

  mutating func constant(_ value: Value, _ type: ValueType, _ span: SourceSpan)
    -> ResolvedExpression
  {
    node(.constant(value), type, span)
  }

  mutating func node(_ kind: ResolvedExpression.Kind, _ type: ValueType, _ span: SourceSpan)
    -> ResolvedExpression
  {
    nodeSpans.append(span)
    nodeTypes.append(type)
    return ResolvedExpression(kind: kind, type: type, span: span, id: nodeSpans.count - 1)
  }

  static func fileStem(_ path: String) -> String {
    let file = path.split(separator: "/").last.map(String.init) ?? path
    return file.split(separator: ".").first.map(String.init) ?? file
  }
}
