import Foundation
import ReckonPolicy
import Testing

/// `reckon fmt`'s printer: one layout, comments kept, idempotent, and the tree unchanged.
struct FormatterTests {
  struct Case: CustomTestStringConvertible, Sendable {
    let name: String
    let input: String
    let expected: String
    var testDescription: String { name }
  }

  static let cases: [Case] = [
    Case(
      name: "spacing and indentation are normalised",
      input:
        "policy   \"p\"\nrule \"a\" when usage.consumed>=80%and reason!=LEGAL then refund DECLINE,set sampleContentProvided=true\n",
      expected: """
        policy "p"
        rule "a"
          when usage.consumed >= 80% and reason != LEGAL
          then refund DECLINE, set sampleContentProvided = true

        """),
    Case(
      name: "only the parentheses the tree needs are kept",
      input:
        "let a = ((x + 1)) * 2 - (3 - y)\nlet b = (p and q) or (r and (s or t))\nlet c = not (a > 1)\n",
      expected:
        "let a = (x + 1) * 2 - (3 - y)\nlet b = (p and q) or (r and (s or t))\nlet c = not (a > 1)\n"
    ),
    Case(
      name: "an 'and' inside an 'or' keeps its parentheses, as mixed-and-or asks",
      input:
        "let k = u > 3 or (u < 1 and u != 0)\nlet m = a and (b or (c and d))\nlet n = p or q and r\n",
      expected:
        "let k = u > 3 or (u < 1 and u != 0)\nlet m = a and (b or (c and d))\nlet n = p or (q and r)\n"
    ),
    Case(
      name: "a comparison after not keeps its parentheses",
      input:
        "let c = not a > 1\nlet d = not (x is missing)\nlet e = not (p)\nlet f = not (p and q)\n",
      expected:
        "let c = not (a > 1)\nlet d = not (x is missing)\nlet e = not p\nlet f = not (p and q)\n"),
    Case(
      name: "literals are spelled one way",
      input:
        "let a = 50.000 USD\nlet b = 4.990 USD\nlet c = 012.50%\nlet d = 1_000\nlet e = 1 day\nlet f = \"say \\\"hi\\\"\"\n",
      expected:
        "let a = 50 USD\nlet b = 4.99 USD\nlet c = 12.5%\nlet d = 1000\nlet e = 1 day\nlet f = \"say \\\"hi\\\"\"\n"
    ),
    Case(
      name: "comments stay where they were, own-line and trailing",
      input:
        "# head\npolicy \"p\"   # name\n\n\n\n# about a\nlet a = 1 # one\nrule \"r\"\n  # why\n  when a > 0 # check\n  then share data only\n# tail\n",
      expected:
        "# head\npolicy \"p\"  # name\n\n# about a\nlet a = 1  # one\nrule \"r\"\n  # why\n  when a > 0  # check\n  then share data only\n# tail\n"
    ),
    Case(
      name: "long conditions wrap before 'and', filling each line",
      input:
        "rule \"long\" when customer.override is not missing and customer.override == GRANT_PRORATED and usage.consumed > 0% and usage.consumed < 100% then refund GRANT_PRORATED\n",
      expected: """
        rule "long"
          when customer.override is not missing and customer.override == GRANT_PRORATED
            and usage.consumed > 0% and usage.consumed < 100%
          then refund GRANT_PRORATED

        """),
    Case(
      name: "blank lines between declarations are kept in a CRLF file",
      input:
        "policy \"p\"\r\n\r\n# about a\r\nlet a = 1  # one\r\n\r\n\r\nrule \"r\"\r\n  when a > 0\r\n  then share data only\r\n",
      expected:
        "policy \"p\"\n\n# about a\nlet a = 1  # one\n\nrule \"r\"\n  when a > 0\n  then share data only\n"
    ),
    Case(
      name: "a byte order mark at the start is dropped",
      input: "\u{FEFF}rule \"r\" when true then share data only\n",
      expected: "rule \"r\"\n  when true\n  then share data only\n"
    ),
    Case(
      name: "comments between continued condition lines stay beside their parts",
      input: """
        rule "r"
          when customer.override is not missing  # first
            # between
            and usage.consumed > 0%  # after second
            and usage.consumed < 100%
          then refund DECLINE

        """,
      expected: """
        rule "r"
          when customer.override is not missing  # first
            # between
            and usage.consumed > 0%  # after second
            and usage.consumed < 100%
          then refund DECLINE

        """),
    Case(
      name: "a comment after 'when' or 'then' stays on that line",
      input: "rule \"r\"\n  when # why\n    reason == LEGAL\n  then # act\n  refund DECLINE\n",
      expected: "rule \"r\"\n  when reason == LEGAL  # why\n  then refund DECLINE  # act\n"),
    Case(
      name: "of two comments a joined line would hold, the first goes above it",
      input:
        "rule \"a\"\n  when reason == LEGAL\n  then  # why\n    refund DECLINE  # ticket 12\n"
        + "otherwise  # fallback\n  share data only  # default\n",
      expected:
        "rule \"a\"\n  when reason == LEGAL\n  # why\n  then refund DECLINE  # ticket 12\n"
        + "# fallback\notherwise share data only  # default\n"),
    Case(
      name: "a comment on its own line after 'when' or 'then' goes above that line",
      input:
        "rule \"r\"\n  when\n    # why\n    reason == LEGAL\n  then\n    # act\n    refund DECLINE\n",
      expected: "rule \"r\"\n  # why\n  when reason == LEGAL\n  # act\n  then refund DECLINE\n"),
    Case(
      name: "comments between actions keep one action per line, each beside its comment",
      input: """
        rule "r"
          when reason == LEGAL
          then refund DECLINE,  # why decline
            # about the sample
            set sampleContentProvided = true  # why sample

        otherwise share data only,  # first
          set sampleContentProvided = false

        """,
      expected: """
        rule "r"
          when reason == LEGAL
          then refund DECLINE,  # why decline
            # about the sample
            set sampleContentProvided = true  # why sample

        otherwise share data only,  # first
          set sampleContentProvided = false

        """),
    Case(
      name: "actions wider than the line go one per line",
      input:
        "rule \"r\"\n  when reason == LEGAL\n  then refund DECLINE, hold for review, set sampleContentProvided = true, set consumptionPercentage = 50%\n",
      expected: """
        rule "r"
          when reason == LEGAL
          then refund DECLINE,
            hold for review,
            set sampleContentProvided = true,
            set consumptionPercentage = 50%

        """),
    Case(
      name: "a parenthesised chain too long for its line wraps inside its parentheses",
      input:
        "rule \"skus\" when reason == LEGAL and (product.id == \"com.example.sku0\" or product.id == \"com.example.sku1\" or product.id == \"com.example.sku2\" or product.id == \"com.example.sku3\") and usage.consumed > 10% then refund DECLINE\n",
      expected: """
        rule "skus"
          when reason == LEGAL
            and (product.id == "com.example.sku0" or product.id == "com.example.sku1"
              or product.id == "com.example.sku2" or product.id == "com.example.sku3")
            and usage.consumed > 10%
          then refund DECLINE

        """),
    Case(
      name: "so does one under not",
      input:
        "rule \"skus\" when not (product.id == \"com.example.sku0\" or product.id == \"com.example.sku1\" or product.id == \"com.example.sku2\" or product.id == \"com.example.sku3\") and reason == LEGAL then refund DECLINE\n",
      expected: """
        rule "skus"
          when not (product.id == "com.example.sku0" or product.id == "com.example.sku1"
              or product.id == "com.example.sku2" or product.id == "com.example.sku3")
            and reason == LEGAL
          then refund DECLINE

        """),
    Case(
      name: "actions without comments between them join one line",
      input:
        "rule \"r\"\n  when reason == LEGAL\n  then refund DECLINE,\n    set sampleContentProvided = true  # why\n",
      expected:
        "rule \"r\"\n  when reason == LEGAL\n  then refund DECLINE, set sampleContentProvided = true  # why\n"
    ),
  ]

  @Test(arguments: cases)
  func formatsToTheCanonicalLayout(_ example: Case) throws {
    let formatted = try PolicyFormatter().format(SourceFile(path: "p.policy", text: example.input))
    #expect(formatted == example.expected)
    #expect(
      try PolicyFormatter().format(SourceFile(path: "p.policy", text: formatted)) == formatted)
    #expect(SyntaxShape.of(example.input) == SyntaxShape.of(formatted))
  }

  static let numbers: [(written: String, formatted: String)] = [
    ("0.00001", "0.00001"),
    ("0.0000001 days", "0.0000001 days"),
    ("0.00001%", "0.00001%"),
    ("1_000_000_000_000_000_000", "1000000000000000000"),
    ("1000000000000000", "1000000000000000"),
    ("123456789.125", "123456789.125"),
    ("0.1234567890123", "0.1234567890123"),
  ]

  @Test(arguments: numbers)
  func numbersAreWrittenInPlainDecimalThatReadsBackTheSame(
    written: String, formatted: String
  ) throws {
    let input =
      "rule \"a\"\n  when customer.refunds_last_90_days > \(written)\n  then refund DECLINE\n"
    let output = try PolicyFormatter().format(SourceFile(path: "p.policy", text: input))
    #expect(output == input.replacingOccurrences(of: written, with: formatted))
    let (_, diagnostics) = Parser.parse(SourceFile(path: "p.policy", text: output))
    #expect(diagnostics.isEmpty)
    #expect(SyntaxShape.of(output) == SyntaxShape.of(input))
  }

  /// The shipped policies and the examples' (the Google Play one checks in Google's words, but
  /// the layout is the same).
  static let policyPaths: [String] = ["../../policies", "../../examples/google-play"].flatMap {
    let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
      $0
    ).standardizedFileURL
    let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
    return names.filter { $0.hasSuffix(".policy") }.sorted().map {
      folder.appendingPathComponent($0).path
    }
  }

  @Test(arguments: policyPaths)
  func shippedPoliciesAreAlreadyFormatted(path: String) throws {
    let text = try String(contentsOfFile: path, encoding: .utf8)
    let formatted = try PolicyFormatter().format(SourceFile(path: path, text: text))
    #expect(formatted == text)
    #expect(SyntaxShape.of(formatted) == SyntaxShape.of(text))
  }

  @Test func aFileThatDoesNotParseIsRefusedWithItsErrors() throws {
    let error = #expect(throws: PolicyFormatError.self) {
      try PolicyFormatter().format(
        SourceFile(path: "bad.policy", text: "rule \"x\" when then refund DECLINE\n"))
    }
    #expect(error?.rendered().contains("bad.policy:1:15: error") == true)
  }

  @Test func anEmptyFileStaysEmpty() throws {
    #expect(try PolicyFormatter().format(SourceFile(path: "e.policy", text: "\n\n")) == "")
  }
}

/// A policy's syntax tree without spans or comments, for comparing trees across layouts.
enum SyntaxShape {
  static func of(_ text: String) -> String {
    let (syntax, _) = Parser.parse(SourceFile(path: "x.policy", text: text))
    let described = String(describing: syntax.declarations)
    return described.replacing(try! Regex(#"SourceSpan\(start: \d+, end: \d+\)"#), with: "_")
  }
}
