import Foundation
import Testing

/// A command called wrongly says which word was wrong and what was meant, and never ignores a
/// word it did not use.
struct ArgumentErrorTests {
  static let fixtures = "Tests/ReckonCLITests/Fixtures"
  static let eval = [
    "eval", "--policy", "policies/targeted.policy", "--request", "\(fixtures)/request.json",
    "--facts", "\(fixtures)/facts.json",
  ]

  static let cases: [CommandErrorCase] = [
    // An empty value is most often a shell variable not set: `--out ""` wrote into `/`.
    CommandErrorCase(
      arguments: ["generate", "--out", "", "--count", "5"],
      message: "reckon generate: --out was given an empty value; give it one"),
    CommandErrorCase(
      arguments: ["generate", "--out= ", "--count", "5"],
      message: "reckon generate: --out was given an empty value; give it one"),
    // 740,000 days took 21 s and 620 MB to print, into `| head` too.
    CommandErrorCase(
      arguments: [
        "report", "outcomes", "--state", "none.sqlite", "--by", "day", "--since", "2000-01-01",
        "--until", "2030-01-01",
      ],
      message:
        "reckon report: --by day from --since to --until makes about 10958 periods, and a report shows at most 10000: narrow the window, or take a longer --by"
    ),
    CommandErrorCase(
      arguments: [
        "report", "outcomes", "--state", "none.sqlite", "--by", "month", "--since", "1970-01-01",
        "--until", "9999-01-01",
      ],
      message:
        "reckon report: --by month from --since to --until makes about 96339 periods, and a report shows at most 10000: narrow the window"
    ),
    // Both name the state: one would be passed over without a word.
    CommandErrorCase(
      arguments: [
        "report", "outcomes", "--state", "none.sqlite", "--config", "examples/reckon.json",
      ],
      message:
        "reckon report: give --state or --config, not both: --state none.sqlite would be read and the state of examples/reckon.json passed over"
    ),
    CommandErrorCase(
      arguments: [
        "prune", "--state", "none.sqlite", "--config", "examples/reckon.json", "--dry-run",
      ],
      message:
        "reckon prune: give --state or --config, not both: --state none.sqlite would be read and the state of examples/reckon.json passed over"
    ),
    // Older than anything a state holds, and printed by Foundation in the Julian calendar.
    CommandErrorCase(
      arguments: ["prune", "--state", "none.sqlite", "--before", "0001-01-01", "--dry-run"],
      message:
        "reckon prune: --before: '0001-01-01' is before 1970, older than anything Reckon records; give a later date"
    ),
    CommandErrorCase(
      arguments: ["simulate", "--init-ca", ""],
      message: "reckon simulate: --init-ca was given an empty value; give it one"),
    // An option of one value given twice: the last would otherwise win without a word.
    CommandErrorCase(
      arguments: eval + ["--policy", "policies/prefer-refund.policy"],
      message:
        "reckon eval: --policy is given 2 times ('policies/targeted.policy', 'policies/prefer-refund.policy'): give it once"
    ),
    CommandErrorCase(
      arguments: [
        "prune", "--older-than", "30", "--older-than", "40", "--dry-run", "--state",
        "none.sqlite",
      ],
      message: "reckon prune: --older-than is given 2 times ('30', '40'): give it once"),
    CommandErrorCase(
      arguments: [
        "eval", "--policy", "policies/targeted.policy", "--fact", "usage.consumed=40%", "--fact",
        "usage.consumed=90%",
      ],
      message: "reckon eval: --fact usage.consumed is given twice: give each fact once"),
    CommandErrorCase(
      arguments: eval + ["--explian"],
      message: "reckon eval: unknown option --explian (did you mean --explain?)"),
    CommandErrorCase(
      arguments: eval + ["--explian", "--format", "json"],
      message: "reckon eval: unknown option --explian (did you mean --explain?)"),
    CommandErrorCase(
      arguments: ["eval", "--policy", "policies/targeted.policy", "--request"],
      message: "reckon eval: --request needs a value"),
    CommandErrorCase(
      arguments: eval + ["--format"],
      message: "reckon eval: --format needs a value"),
    // An unknown option does not take the known option after it as its value.
    CommandErrorCase(
      arguments: ["eval", "--bogus"] + eval.dropFirst(),
      message: "reckon eval: unknown option --bogus"),
    CommandErrorCase(
      arguments: ["eval", "--bogus", "--format=json"] + eval.dropFirst(),
      message: "reckon eval: unknown option --bogus"),
    CommandErrorCase(
      arguments: ["eval", "--policy", "--request", "\(fixtures)/request.json"],
      message: "reckon eval: --policy needs a value"),
    CommandErrorCase(
      arguments: ["queue", "list", "--format", "xml", "--config", "examples/reckon.json"],
      message: "reckon queue: --format must be text or json"),
    CommandErrorCase(
      arguments: [
        "dry-run", "--policy", "policies/targeted.policy", "--requests",
        "\(fixtures)/request.json", "--format", "xml",
      ],
      message: "reckon dry-run: --format must be text, csv or json"),
    CommandErrorCase(
      arguments: eval + ["extra"],
      message: "reckon eval: unexpected argument 'extra': this command takes only options"),
    CommandErrorCase(
      arguments: [
        "dry-run", "--policy", "policies/targeted.policy", "--requests",
        "\(fixtures)/request.json", "--facts", "\(fixtures)/facts.json", "extra",
      ],
      message: "reckon dry-run: unexpected argument 'extra': this command takes only options"),
    CommandErrorCase(
      arguments: ["send", "--format", "json", "--config", "examples/reckon.json"],
      message: "reckon send: --format is for --once: the running sender logs JSON"),
    CommandErrorCase(
      arguments: ["send", "--once", "--format", "xml", "--config", "examples/reckon.json"],
      message: "reckon send: --format must be text or json"),
    CommandErrorCase(
      arguments: ["report", "foo", "--state", "reckon-state.sqlite"],
      message: "reckon report: unknown report 'foo'; the reports are: outcomes, rules"),
    CommandErrorCase(
      arguments: ["report", "outcomes", "extra", "--state", "reckon-state.sqlite"],
      message: "reckon report: unexpected argument 'extra'"),
    CommandErrorCase(
      arguments: ["keys", "check", "extra", "--config", "examples/reckon.json"],
      message: "reckon keys: unexpected argument 'extra'"),
    CommandErrorCase(
      arguments: [
        "eval", "--polcy", "policies/targeted.policy", "--request", "\(fixtures)/request.json",
        "--facts", "\(fixtures)/facts.json",
      ],
      message: "reckon eval: unknown option --polcy (did you mean --policy?)"),
    CommandErrorCase(
      arguments: ["eval", "--policy", "policies/targeted.policy", "--reqest"],
      message: "reckon eval: unknown option --reqest (did you mean --request?)"),
    // --count is generate's own option, read after --out: not a typo of it.
    CommandErrorCase(
      arguments: ["generate", "--count", "5"],
      message: "reckon generate: missing --out"),
    CommandErrorCase(
      arguments: ["keys", "chek"],
      message: "reckon keys: unknown keys command 'chek' (did you mean 'check'?)"),
    // A flag given a value was read as an option no command reads, and dropped.
    CommandErrorCase(
      arguments: [
        "simulate", "--ca", "/nonexistent", "--url", "http://127.0.0.1:9/", "--force=yes",
      ],
      message: "reckon simulate: --force takes no value; write --force alone"),
    CommandErrorCase(
      arguments: eval + ["--explain", "--format", "json", "--since", "2026-01-01"],
      message: "reckon eval: unknown option --since"),
    // An option the help names (for another use, or another command): not "did you mean" itself.
    CommandErrorCase(
      arguments: ["simulate", "--init-ca", "/nonexistent/ca", "--type", "REFUND"],
      message: "reckon simulate: unknown option --type"),

  ]

  @Test(arguments: cases)
  func aWrongWordIsNamedAsAUsageError(_ example: CommandErrorCase) async throws {
    let run = try await ReckonBinary.run(example.arguments)
    #expect(run.status == 2)
    #expect(run.standardError.hasPrefix(example.message + "\n"), "\(run.standardError)")
    #expect(run.standardOutput.isEmpty)
  }
}
