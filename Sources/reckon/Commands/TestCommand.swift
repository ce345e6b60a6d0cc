import Foundation
import ReckonEngine
import ReckonTools

/// `reckon test [PATHS]`: runs policy tests files and reports failures and rule coverage.
enum TestCommand: Command {
  static let name = "test"
  static let summary = "Run the tests beside each policy and report rule coverage"
  static let options: [CommandOption] = [
    CommandOption("format", value: "FORMAT", help: "text (default) or json"),
    CommandOption(
      "require-coverage", help: "also fail when a rule decides no test or a policy has no tests"),
    CommandOption(
      "config", value: "FILE",
      help: "test its apps' policies in their store's words, knowing its custom facts"),
    CommandOption(
      "store", value: "STORE", help: "appStore or googlePlay: the words of tests naming no store"),
  ]
  static let help = """
    Usage: reckon test [PATHS...] [--format text|json] [--require-coverage] [--config reckon.json]
                   [--store appStore|googlePlay]

    Runs NAME.tests beside NAME.policy (a folder means every *.tests file in it, and a folder
    without one is an error; a .policy file means the .tests file beside it; default: the
    policies --config's apps name, else policies/). A policy in a folder without a tests file beside it is named. Each test gives
    facts and states what must come out; a failure shows expected against actual, the test's
    file:line and the trace. Then it reports coverage: each rule with the tests it decided, or
    never decided (tried, never matched) or never reached (no test got to it), and each
    condition not seen both true and false.

    \(CommandOption.table(options, column: 21))

    A path that cannot be read is reported and the others still run.
    """

  static let exitStatuses: [(code: Int32, meaning: String)] = [
    (0, "every test passes"),
    (
      1,
      "a test fails, a file does not check, a path cannot be read, or (with --require-coverage) a rule decides no test or a policy in a folder has no tests file, which it names"
    ),
  ]

  static func run(_ arguments: inout Arguments, _ console: Console) async throws -> Int32 {
    let format = try OutputFormat.option(&arguments) ?? .text
    let requireCoverage = arguments.flag("require-coverage")
    let (schema, stores, configured) = try CustomFactsOption.stores(&arguments)
    try arguments.rejectUnknown(positionals: .max)
    // A path that cannot be read is reported and the others still run, so one run reports
    // every problem.
    var unreadable: [String] = []
    var reports: [PolicyTestFileReport] = []
    // A file named twice (a policy and its tests file, or in its folder too) runs once.
    var seen: Set<String> = []
    // A policy with no tests file would otherwise pass unmentioned, the folder's other tests
    // standing in for it.
    var untested: [String] = []
    var seenUntested: Set<String> = []
    // With no paths, the policies the configuration's apps decide by, else policies/.
    let inputs =
      !arguments.positionals.isEmpty
      ? arguments.positionals : configured.isEmpty ? ["policies"] : configured
    for input in inputs {
      // A configured policy with no tests file beside it is named, as one in a folder is.
      if arguments.positionals.isEmpty, !configured.isEmpty,
        FileManager.default.fileExists(atPath: input), !hasTests(input)
      {
        untested += PolicyFiles.dropRepeats([input], seen: &seenUntested)
        continue
      }
      untested += PolicyFiles.dropRepeats(
        PolicyFiles.untestedPolicies(in: input), seen: &seenUntested)
      let paths: [String]
      do { paths = PolicyFiles.dropRepeats(try testsPaths([input]), seen: &seen) } catch {
        unreadable.append(error.description)
        continue
      }
      for path in paths {
        // Tests that name no store are in the words of the store whose apps decide by the
        // policy, when --config gives it to one store's apps only.
        let policyStores = stores(String(path.dropLast(".tests".count)) + ".policy")
        let testsSchema = policyStores.count == 1 ? schema.schema(for: policyStores[0]) : schema
        do { reports.append(try PolicyTestRunner.run(testsPath: path, schema: testsSchema)) } catch
        {
          unreadable.append(error.description)
        }
      }
    }
    for problem in unreadable { console.error("reckon test: \(problem)") }
    let undecided = reports.contains { !($0.coverage?.undecidedRules.isEmpty ?? true) }
    let failsCoverage = requireCoverage && (undecided || !untested.isEmpty)
    if format == .json {
      console.out(
        PolicyTestJSONReport(
          reports, unreadable: unreadable, untested: untested, failsCoverage: failsCoverage
        ).jsonText())
    } else {
      for report in reports {
        // A policy in Google Play's words alone traces by Google's schema.
        let policy =
          (try? PolicyFiles.load(report.policyPath, schema: schema).policy ?? nil)
          ?? (try? PolicyFiles.load(report.policyPath, schema: schema.schema(for: .googlePlay))
            .policy ?? nil)
        let explainer = policy.map(DecisionExplainer.init)
        console.out(report.render(explainer: explainer ?? nil))
      }
      console.out(summary(reports, unreadable: unreadable.count))
      // Otherwise a run whose tests all pass would exit 1 with no word of why.
      if requireCoverage, undecided { console.out(uncovered(reports)) }
      if !untested.isEmpty { console.out(withoutTests(untested, failing: requireCoverage)) }
    }
    let failed = !unreadable.isEmpty || reports.contains { !$0.passed } || failsCoverage
    return failed ? 1 : 0
  }

  /// Whether the policy at `path` has a tests file beside it.
  private static func hasTests(_ path: String) -> Bool {
    !path.hasSuffix(".policy")
      || FileManager.default.fileExists(atPath: String(path.dropLast(".policy".count)) + ".tests")
  }

  private static func testsPaths(_ inputs: [String]) throws(PolicyFiles.Failure) -> [String] {
    var paths: [String] = []
    for input in inputs {
      if input.hasSuffix(".policy") {
        guard FileManager.default.fileExists(atPath: input) else { throw .notFound(input) }
        paths.append(String(input.dropLast(".policy".count)) + ".tests")
        guard FileManager.default.fileExists(atPath: paths[paths.count - 1]) else {
          throw .notFound(paths[paths.count - 1])
        }
      } else {
        paths += try PolicyFiles.expand([input], fileExtension: "tests")
      }
    }
    return paths
  }

  /// Why `--require-coverage` fails the run: each policy's rules that decide no test.
  private static func uncovered(_ reports: [PolicyTestFileReport]) -> String {
    let lines = reports.compactMap { report -> String? in
      guard let rules = report.coverage?.undecidedRules, !rules.isEmpty else { return nil }
      let names = rules.map { "\"\($0)\"" }.joined(separator: ", ")
      return "  \(report.policyPath): \(names)"
    }
    let count = reports.map { $0.coverage?.undecidedRules.count ?? 0 }.reduce(0, +)
    return
      "--require-coverage: \(count) rule\(count == 1 ? "" : "s") decided no test:\n"
      + lines.joined(separator: "\n")
  }

  /// The policies with no tests file: a note, or why `--require-coverage` fails the run.
  private static func withoutTests(_ policies: [String], failing: Bool) -> String {
    let lines = policies.map {
      "  \($0) (write \(String($0.dropLast(".policy".count))).tests beside it)"
    }
    let count = policies.count == 1 ? "1 policy has" : "\(policies.count) policies have"
    let lead = failing ? "--require-coverage: \(count) no tests:" : "note: \(count) no tests:"
    return ([lead] + lines).joined(separator: "\n")
  }

  private static func summary(_ reports: [PolicyTestFileReport], unreadable: Int) -> String {
    let tests = reports.map(\.outcomes.count).reduce(0, +)
    let failed = reports.map(\.failedCount).reduce(0, +)
    let broken = reports.filter { !$0.problems.isEmpty }.count
    let files = reports.count == 1 ? "1 file" : "\(reports.count) files"
    var line =
      "\(files), \(tests) test\(tests == 1 ? "" : "s"): \(tests - failed) passed, \(failed) failed"
    if broken > 0 { line += ", \(broken) file\(broken == 1 ? "" : "s") could not run" }
    if unreadable > 0 {
      line +=
        ", \(unreadable) path\(unreadable == 1 ? "" : "s") not found, not readable or without tests"
    }
    return line
  }
}
