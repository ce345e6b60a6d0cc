import Foundation
import Testing

/// The authoring verbs run as a user runs them, compared with golden files.
struct AuthoringCommandTests {
  struct Case: CustomTestStringConvertible, Sendable {
    let snapshot: String
    let arguments: [String]
    let status: Int32
    var testDescription: String { "reckon " + arguments.joined(separator: " ") }
  }

  static let fixtures = "Tests/ReckonCLITests/Fixtures"

  static let cases: [Case] = [
    Case(snapshot: "test-targeted", arguments: ["test", "policies/targeted.policy"], status: 0),
    Case(snapshot: "test-failing", arguments: ["test", "\(fixtures)/broken.tests"], status: 1),
    Case(
      snapshot: "test-require-coverage",
      arguments: ["test", "--require-coverage", "\(fixtures)/partly-covered.tests"], status: 1),
    Case(
      snapshot: "test-failing-json",
      arguments: ["test", "--format", "json", "\(fixtures)/broken.tests"], status: 1),
    Case(
      snapshot: "fmt-check",
      arguments: ["fmt", "--check", "\(fixtures)/messy.policy", "policies/targeted.policy"],
      status: 1),
    Case(
      snapshot: "fmt-stdout", arguments: ["fmt", "--stdout", "\(fixtures)/messy.policy"], status: 0),
    Case(
      snapshot: "eval-explain",
      arguments: [
        "eval", "--policy", "policies/targeted.policy", "--request", "\(fixtures)/request.json",
        "--facts",
        "\(fixtures)/facts.json", "--explain",
      ], status: 0),
    Case(
      snapshot: "eval-explain-otherwise",
      arguments: [
        "eval", "--policy", "\(fixtures)/messy.policy", "--request", "\(fixtures)/request.json",
        "--facts",
        "\(fixtures)/facts-light-use.json", "--explain",
      ], status: 0),
    // A body that breaks Apple's rules is shown, labelled as never sent.
    Case(
      snapshot: "eval-breaks-apple-rules",
      arguments: [
        "eval", "--policy", "\(fixtures)/prorate-everything.policy", "--request",
        "\(fixtures)/request.json", "--facts", "\(fixtures)/facts.json",
      ], status: 0),
    Case(
      snapshot: "check-deep", arguments: ["check", "\(fixtures)/deep-checks.policy"], status: 0),
    Case(
      snapshot: "check-errors", arguments: ["check", "\(fixtures)/misspelled.policy"], status: 1),
    Case(snapshot: "check-shipped", arguments: ["check", "policies"], status: 0),
    Case(
      snapshot: "eval-json",
      arguments: [
        "eval", "--policy", "policies/targeted.policy", "--request", "\(fixtures)/request.json",
        "--facts", "\(fixtures)/facts.json", "--format", "json",
      ], status: 0),
    Case(snapshot: "help", arguments: ["--help"], status: 0),
    Case(snapshot: "help-eval", arguments: ["eval", "--help"], status: 0),
    Case(snapshot: "unknown-command", arguments: ["evaluate"], status: 2),
    Case(
      snapshot: "eval-missing-option",
      arguments: ["eval", "--request", "examples/eval/request.json"], status: 2),
    Case(
      snapshot: "eval-unknown-format",
      arguments: [
        "eval", "--policy", "policies/targeted.policy", "--request", "\(fixtures)/request.json",
        "--facts", "\(fixtures)/facts.json", "--format", "yaml",
      ], status: 2),
    Case(
      snapshot: "eval-config-unknown-format",
      arguments: [
        "eval", "--config", "examples/reckon.json", "--request", "\(fixtures)/request.json",
        "--format", "yaml",
      ], status: 2),
    Case(
      snapshot: "eval-bad-now",
      arguments: [
        "eval", "--policy", "policies/targeted.policy", "--request", "\(fixtures)/request.json",
        "--facts", "\(fixtures)/facts.json", "--now", "yesterday",
      ], status: 2),
  ]

  @Test(arguments: cases)
  func printsWhatTheGoldenFileHolds(_ example: Case) async throws {
    let run = try await ReckonBinary.run(example.arguments)
    #expect(run.status == example.status)
    try Snapshot.assert(run.transcript, named: example.snapshot)
  }

  @Test func fmtCheckChangesNoFile() async throws {
    let path = ReckonBinary.packageRoot.appendingPathComponent("\(Self.fixtures)/messy.policy").path
    let before = try String(contentsOfFile: path, encoding: .utf8)
    _ = try await ReckonBinary.run(["fmt", "--check", path])
    #expect(try String(contentsOfFile: path, encoding: .utf8) == before)
  }

  @Test func shippedPoliciesAreFormattedAndPassTheirTests() async throws {
    #expect(try await ReckonBinary.run(["fmt", "--check", "policies"]).status == 0)
    #expect(try await ReckonBinary.run(["test", "--require-coverage", "policies"]).status == 0)
  }
}
