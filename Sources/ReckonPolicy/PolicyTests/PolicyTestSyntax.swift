/// A policy's tests file, exactly as written: file-wide `given` facts and the tests in order.
public struct PolicyTestFile: Hashable, Sendable {
  /// Facts given before the first test, which every test starts from.
  public var defaults: [FactAssignment]
  /// The tests in source order.
  public var tests: [PolicyTestCase]
  /// `store NAME` before the first test: the store whose request every test describes unless
  /// it names its own. The language knows no store; the runner reads the name.
  public var store: Located<String>? = nil

  /// The store test `index` describes, as written: its own, else the file's; nil for neither.
  public func store(of index: Int) -> Located<String>? { tests[index].store ?? store }
}

/// `test "NAME"` with its `given` facts and `expect` clauses.
public struct PolicyTestCase: Hashable, Sendable {
  /// The test's name, shown when it fails.
  public var name: Located<String>
  /// The facts the test gives, in order, each fact once; they win over the file-wide ones.
  public var givens: [FactAssignment]
  /// What must come out, in order.
  public var expectations: [Expectation]
  /// The whole test.
  public var span: SourceSpan
  /// `store NAME` in the test: the store whose request it describes.
  public var store: Located<String>? = nil
}

/// `FACT = VALUE` or `FACT is missing` after `given`.
public struct FactAssignment: Hashable, Sendable {
  /// The fact's dotted name.
  public var fact: Located<String>
  /// The value as written, or nil for `is missing`.
  public var value: TestValue?
  /// The whole assignment.
  public var span: SourceSpan
}

/// A value in a tests file, kept as written so it can be read against the type of what it is for.
public struct TestValue: Hashable, Sendable {
  /// The source text (`94%`, `4.99 USD`, `3 days ago`), or for a quoted value its decoded text.
  public var text: String
  /// Whether it was written between double quotes.
  public var isQuoted: Bool
  /// Where it was written.
  public var span: SourceSpan

  /// Creates a value as written.
  public init(text: String, isQuoted: Bool, span: SourceSpan) {
    self.text = text
    self.isQuoted = isQuoted
    self.span = span
  }
}

/// One thing a test expects of the decision.
public struct Expectation: Hashable, Sendable {
  /// What is expected.
  public enum Kind: Hashable, Sendable {
    /// `refund CHOICE`: a body is made, with this refund preference.
    case choose(Located<String>)
    /// `share data only`: a body is made, without a refund preference.
    case replyWithoutChoice
    /// `do not respond`: the policy chose to send nothing.
    case withholdReply
    /// `hold for review`: the body is queued for a person.
    case holdForReview
    /// `no reply`: nothing is sent, for whatever reason.
    case noReply
    /// `rule "NAME"`: this rule decided.
    case rule(Located<String>)
    /// `otherwise`: no rule matched.
    case otherwise
    /// `FIELD = VALUE`, or `FIELD is missing` (value nil): a body field's value.
    case field(Located<String>, TestValue?)
  }

  /// What is expected.
  public var kind: Kind
  /// Where it was written.
  public var span: SourceSpan
}
