import Foundation
import ReckonEngine
import ReckonPolicy
import ReckonSupport

/// What running one tests file found: problems that stopped it, each test's outcome, and coverage.
public struct PolicyTestFileReport: Sendable {
  /// The tests file.
  public let testsSource: SourceFile
  /// The policy the tests are for.
  public let policyPath: String
  /// What kept the tests from running (a policy or tests file that does not check), in order.
  public internal(set) var stops: [Stop]
  /// Each of `stops` as a terminal shows it: diagnostics rendered with their source lines.
  public var problems: [String] { stops.map(\.rendered) }
  /// Each test's outcome, in file order.
  public internal(set) var outcomes: [PolicyTestOutcome] = []
  /// The policy's rule coverage, when the tests ran.
  public internal(set) var coverage: PolicyCoverage?

  /// One thing that kept a tests file from running.
  public enum Stop: Sendable {
    /// Diagnostics in a file: the tests file, or the policy.
    case diagnostics([Diagnostic], in: SourceFile)
    /// A problem no diagnostic locates (a policy missing beside its tests).
    case note(String)

    /// As a terminal shows it.
    public var rendered: String {
      switch self {
      case .diagnostics(let diagnostics, let source):
        DiagnosticFormatter().render(diagnostics, in: source)
      case .note(let text): text
      }
    }
  }

  init(testsSource: SourceFile, policyPath: String, stops: [Stop] = []) {
    self.testsSource = testsSource
    self.policyPath = policyPath
    self.stops = stops
  }

  /// One report of the runs of one tests file in each store's words: the outcomes in file
  /// order, the coverage added up.
  init(merging reports: [PolicyTestFileReport]) {
    self = reports[0]
    for report in reports.dropFirst() {
      // Each store's run reads the whole file: a problem of the file is said once.
      let said = Set(problems)
      stops += report.stops.filter { !said.contains($0.rendered) }
      outcomes += report.outcomes
      if let other = report.coverage {
        if coverage == nil { coverage = other } else { coverage?.merge(other) }
      }
    }
    outcomes.sort { $0.location.line < $1.location.line }
  }

  /// Whether the file ran and every test passed.
  public var passed: Bool { problems.isEmpty && outcomes.allSatisfy(\.passed) }

  /// The number of failed tests.
  public var failedCount: Int { outcomes.filter { !$0.passed }.count }

  /// The report for a terminal; `explainer` renders the trace of failed tests.
  public func render(explainer: DecisionExplainer?) -> String {
    var lines = [testsSource.path]
    lines += problems.map { $0.hasSuffix("\n") ? String($0.dropLast()) : $0 }
    for outcome in outcomes {
      guard !outcome.passed else {
        lines.append("  ok    \(outcome.name)")
        continue
      }
      lines.append("  FAIL  \(outcome.name) (\(testsSource.path):\(outcome.location.line))")
      for failure in outcome.failures {
        lines.append(
          "        \(testsSource.path):\(failure.location): expected \(failure.expected)")
        lines.append(
          "        \(String(repeating: " ", count: "\(testsSource.path):\(failure.location):".count)) actual   \(failure.actual)"
        )
      }
      if let decision = outcome.decision, let explainer {
        lines.append("        trace:")
        lines += explainer.ruleLines(decision).dropFirst().map { "        " + $0 }
      }
    }
    if let coverage {
      lines.append("  coverage of \(policyPath):")
      lines += coverage.lines().map { "    " + $0 }
      let decided = coverage.rules.count - coverage.undecidedRules.count
      lines.append("  \(summary), \(decided) of \(coverage.rules.count) rules decided")
    }
    return lines.joined(separator: "\n") + "\n"
  }

  /// `7 tests: 6 passed, 1 failed`.
  var summary: String {
    let count = outcomes.count
    return
      "\(count) test\(count == 1 ? "" : "s"): \(count - failedCount) passed, \(failedCount) failed"
  }
}

/// Every tests file's report as JSON for tools.
public struct PolicyTestJSONReport: Encodable {
  struct File: Encodable {
    let tests: String
    let policy: String
    let passed: Bool
    let problems: [String]
    /// The diagnostics among `problems`, each as `reckon check --format json` gives one, with
    /// the path of its file.
    let diagnostics: [JSONValue]
    let results: [Result]
    let coverage: PolicyCoverage?
  }

  struct Result: Encodable {
    let name: String
    let line: Int
    let passed: Bool
    let rule: String?
    let outcome: String?
    /// The store whose request the test described (`appStore`, `googlePlay`).
    let store: String?
    let failures: [Failure]
  }

  struct Failure: Encodable {
    let line: Int
    let column: Int
    let expected: String
    let actual: String
  }

  let passed: Bool
  let files: [File]
  /// Paths given that could not be read, each with why.
  let unreadable: [String]
  /// Policies in the folders given that have no tests file beside them.
  let untested: [String]

  /// Builds the JSON report of `reports`; `unreadable` names the paths that could not be read,
  /// `untested` the policies without tests, and `failsCoverage` says a required coverage was not
  /// reached (a rule or a policy untested); an unreadable path or failed coverage fails the run.
  public init(
    _ reports: [PolicyTestFileReport], unreadable: [String] = [], untested: [String] = [],
    failsCoverage: Bool = false
  ) {
    passed = reports.allSatisfy(\.passed) && unreadable.isEmpty && !failsCoverage
    self.unreadable = unreadable
    self.untested = untested
    files = reports.map { report in
      File(
        tests: report.testsSource.path, policy: report.policyPath, passed: report.passed,
        problems: report.problems,
        diagnostics: report.stops.flatMap { stop -> [JSONValue] in
          guard case .diagnostics(let diagnostics, let source) = stop else { return [] }
          return diagnostics.map { diagnostic in
            var fields = DiagnosticDocument.fields(diagnostic, in: source)
            fields["path"] = .string(source.path)
            return .object(fields)
          }
        },
        results: report.outcomes.map { outcome in
          Result(
            name: outcome.name, line: outcome.location.line, passed: outcome.passed,
            rule: outcome.decision?.rule,
            outcome: outcome.decision.map(ExpectationCheck.outcome),
            store: outcome.decision?.store.rawValue,
            failures: outcome.failures.map {
              Failure(
                line: $0.location.line, column: $0.location.column, expected: $0.expected,
                actual: $0.actual)
            })
        }, coverage: report.coverage)
    }
  }

  /// The report as pretty, key-sorted JSON.
  public func jsonText() -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    return (try? encoder.encode(self)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
  }
}
