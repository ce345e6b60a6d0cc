import ReckonPolicy
import ReckonTestSupport
import Testing

/// Round trips over policies made up from a seeded generator: whatever the layout, formatting
/// keeps the tree, and formatting twice changes nothing.
struct FormatterRandomTests {
  @Test(arguments: Array(UInt64(1)...UInt64(200)))
  func randomPolicyRoundTrips(seed: UInt64) throws {
    var generator = RandomPolicy(seed: seed)
    let text = generator.policy()
    let (_, diagnostics) = Parser.parse(SourceFile(path: "random.policy", text: text))
    try #require(diagnostics.isEmpty, "generated text does not parse:\n\(text)")
    let once = try PolicyFormatter().format(SourceFile(path: "random.policy", text: text))
    let twice = try PolicyFormatter().format(SourceFile(path: "random.policy", text: once))
    #expect(once == twice, "not idempotent for:\n\(text)")
    #expect(
      SyntaxShape.of(once) == SyntaxShape.of(text),
      "tree changed for:\n\(text)\n--- formatted:\n\(once)")
    #expect(
      FormatterCommentTests.comments(in: once) == FormatterCommentTests.comments(in: text),
      "a comment was lost:\n\(text)\n--- formatted:\n\(once)")
  }
}

/// Writes random but well-formed policy text, with random spacing, parentheses and comments.
struct RandomPolicy {
  private var state: UInt64

  init(seed: UInt64) {
    state = seed &* 0x9E37_79B9_7F4A_7C15
  }

  /// SplitMix64, so every seed gives the same policy on every machine.
  private mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  private mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }
  private mutating func pick<T>(_ options: [T]) -> T { options[below(options.count)] }
  private mutating func space() -> String { pick([" ", " ", "  ", "\t"]) }
  private mutating func comment() -> String {
    below(4) == 0 ? space() + "# note \(below(100))" : ""
  }
  /// Mostly a space; sometimes a line break inside the code, with a comment before it or on a
  /// line of its own.
  private mutating func gap() -> String {
    switch below(12) {
    case 0: "\n    # inside \(below(100))\n    "
    case 1: "  # after \(below(100))\n    "
    default: space()
    }
  }

  mutating func policy() -> String {
    var lines: [String] = []
    if below(2) == 0 { lines.append("# a generated policy") }
    lines.append("policy\(space())\"p\(below(10))\"" + comment())
    if below(2) == 0 { lines.append("version \(below(9) + 1)") }
    for index in 0..<below(3) {
      lines.append("let\(space())v\(index)\(space())=\(space())\(expression(depth: 3))" + comment())
      if below(3) == 0 { lines.append("") }
    }
    for index in 0..<(below(4) + 1) {
      if below(3) == 0 { lines.append(pick(["", "", "# rule \(index)"])) }
      lines.append("rule \"r\(index)\"" + comment())
      if below(5) == 0 { lines.append("  # inside") }
      lines.append("  when\(space())\(expression(depth: 4))" + comment())
      lines.append("  then \(actions())" + comment())
    }
    if below(2) == 0 { lines.append("otherwise\(space())\(actions())" + comment()) }
    if below(3) == 0 { lines.append("# the end") }
    return lines.joined(separator: "\n") + "\n"
  }

  private mutating func actions() -> String {
    var list = [pick(["refund DECLINE", "refund GRANT_FULL", "share data only", "do not respond"])]
    if below(3) == 0 {
      list.append("set consumptionPercentage\(space())=\(space())max(\(below(101))%,\(gap())x)")
    }
    if below(4) == 0 { list.append("hold for review") }
    return list.joined(separator: "," + space())
  }

  private mutating func expression(depth: Int) -> String {
    guard depth > 0, below(3) != 0 else { return operand() }
    switch below(7) {
    case 0: return expression(depth: depth - 1) + " and" + gap() + expression(depth: depth - 1)
    case 1: return expression(depth: depth - 1) + " or" + gap() + expression(depth: depth - 1)
    case 2: return "not " + parenthesised(depth - 1)
    case 3:
      return arithmetic(depth - 1) + space() + pick(["==", "!=", "<", "<=", ">", ">="]) + space()
        + arithmetic(depth - 1)
    case 4: return "reason" + pick([" in ", " not in "]) + "[LEGAL, OTHER]"
    case 5:
      return pick(["purchase.price", "usage.last_used"]) + pick([" is missing", " is not missing"])
    default: return parenthesised(depth - 1)
    }
  }

  private mutating func parenthesised(_ depth: Int) -> String {
    "(" + expression(depth: depth) + ")"
  }

  private mutating func arithmetic(_ depth: Int) -> String {
    guard depth > 0, below(2) == 0 else { return operand() }
    let op = pick(["+", "-", "*", "/"])
    let left = arithmetic(depth - 1)
    let right = arithmetic(depth - 1)
    return below(2) == 0
      ? "(\(left) \(op)\(gap())\(right))" : "\(left)\(space())\(op)\(gap())\(right)"
  }

  private mutating func operand() -> String {
    pick([
      "usage.consumed", "\(below(101))%", "\(below(1000))", "\(below(100)).\(below(10) + 1)",
      "\(below(90)) days",
      "\(below(100)).\(below(100)) USD", "true", "\"text \(below(9))\"",
      "min(\(below(9)),\(gap())x)",
      "-\(below(9))",
      "customer.refunds_last_90_days", "now - purchase.date",
    ])
  }
}
