import Testing

@testable import ReckonPolicy

/// A JSON or tests file given where a policy is expected gets one error that says what it is,
/// not a syntax error for every brace and key; a policy is never mistaken for one.
struct OtherKindOfFileTests {
  struct Case: CustomTestStringConvertible, Sendable {
    let label: String
    let text: String
    let message: String?
    var testDescription: String { label }
  }

  static let cases: [Case] = [
    Case(
      label: "a JSON object", text: "{\n  \"apps\": [{\"bundleId\": \"com.example\"}]\n}\n",
      message: "this is JSON, not a policy"),
    Case(
      label: "a JSON array after blank lines", text: "\n  \n[1, 2]\n",
      message: "this is JSON, not a policy"),
    Case(
      label: "a tests file after a comment",
      text:
        "# the tests\ntest \"heavy use\"\n  given usage.consumed = 94%\n  expect refund DECLINE\n",
      message: "this is a policy tests file, not a policy"),
    Case(
      label: "a tests file with file-wide facts",
      text: "given reason = LEGAL\n\ntest \"legal\"\n  expect refund GRANT_FULL\n",
      message: "this is a policy tests file, not a policy"),
    Case(
      label: "a policy whose comment starts with a brace",
      text: "# {draft} test \"x\"\notherwise share data only\n", message: nil),
    Case(
      label: "a policy with a let named like a clause",
      text: "let tests = usage.consumed\notherwise share data only\n", message: nil),
    Case(
      label: "a password file",
      text: "root:$6$salt$hashhashhash:19000:0:99999:7:::\ndaemon:*:19000:0:99999:7:::\n",
      message: unlike),
    Case(
      label: "a log whose lines begin with a word the language has, but not alone",
      text: "rules: 3 loaded\notherwise_count=0\nwhen_ms=12\n", message: unlike),
    Case(
      label: "rules written without 'rule', which the parser explains",
      text: "  when reason == LEGAL\n  then refund DECLINE\n", message: nil),
    Case(label: "a policy of comments only", text: "# nothing yet\n", message: nil),
  ]

  static let unlike =
    "this does not look like a policy: no line begins with a word of the policy language "
    + "('rule', 'when', 'otherwise') or a comment; none of it is shown"

  @Test func aFileUnlikeAPolicyIsReportedWithoutQuotingAnyOfIt() {
    let text = "root:$6$salt$secrethash:19000:0:99999:7:::\nbin:*:19000:0:99999:7:::\n"
    let result = TestSchema.load(text, path: "/etc/shadow")
    let rendered = result.renderedDiagnostics()
    #expect(rendered.hasPrefix("/etc/shadow: error[P0223]: this does not look like a policy"))
    #expect(!rendered.contains("secrethash") && !rendered.contains("root"), "\(rendered)")
  }

  @Test(arguments: cases)
  func isNamedForWhatItIs(_ example: Case) {
    let result = TestSchema.load(example.text, path: "wrong.policy")
    if let message = example.message {
      #expect(result.diagnostics.map(\.id) == [.notAPolicy], "\(result.renderedDiagnostics())")
      #expect(result.diagnostics.first?.message == message)
    } else {
      #expect(!result.diagnostics.contains { $0.id == .notAPolicy })
    }
  }

  @Test func aTestsFileHintNamesTheCommandToRunIt() {
    let result = TestSchema.load("test \"a\"\n  expect otherwise\n", path: "policies/a.tests")
    #expect(result.diagnostics.first?.hint == "run its tests with: reckon test policies/a.tests")
    #expect(
      result.renderedDiagnostics().hasPrefix(
        "policies/a.tests:1:1: error[P0223]: this is a policy tests file, not a policy\n"))
  }

  /// `reckon test tests.policy` would look for tests.tests beside it, so a tests file saved with
  /// another extension is told to be renamed rather than given a command that fails.
  @Test(arguments: ["tests.policy", "policies/refunds.txt"])
  func aTestsFileSavedUnderAnotherExtensionIsToldToRenameIt(_ path: String) throws {
    let result = TestSchema.load("test \"a\"\n  expect otherwise\n", path: path)
    let hint = try #require(result.diagnostics.first?.hint)
    #expect(
      hint
        == "save it as NAME.tests beside the policy NAME.policy it tests, then run its tests with: reckon test NAME.tests"
    )
  }
}
