import Foundation
import ReckonAppStore
import ReckonEngine
import ReckonFacts
import ReckonPolicy

/// Runs a policy's tests file through the real `Decider`: each test's facts make a request, the
/// decision is checked against every `expect`, and the traces add up to the policy's rule coverage.
public struct PolicyTestRunner: Sendable {
  /// The policy under test.
  public let policy: CompiledPolicy
  /// The fact schema tests give facts in.
  public let schema: FactSchema
  /// The store of the tests that name none: the runner runs the tests of `schema`'s store.
  public let defaultStore: FactSchema.Store

  /// Creates a runner for `policy`, running the tests of `schema`'s store; tests that name no
  /// store are `defaultStore`'s (by default, `schema`'s).
  public init(
    policy: CompiledPolicy, schema: FactSchema = .standard, defaultStore: FactSchema.Store? = nil
  ) {
    self.policy = policy
    self.schema = schema
    self.defaultStore = defaultStore ?? schema.store
  }

  /// Reads `testsPath` and the policy beside it (same name, `.policy`), and runs the tests:
  /// each test in the words of its store (`store NAME`, else `schema`'s), the policy checked in
  /// the words of every store its tests name, one report with the coverage of them all.
  public static func run(testsPath: String, schema: FactSchema = .standard) throws(PolicyFiles
    .Failure) -> PolicyTestFileReport
  {
    let policyPath = String(testsPath.dropLast(".tests".count)) + ".policy"
    let tests = try PolicyTestRunner.read(testsPath)
    guard FileManager.default.fileExists(atPath: policyPath) else {
      return PolicyTestFileReport(
        testsSource: tests, policyPath: policyPath,
        stops: [.note("\(policyPath): no such policy beside the tests")])
    }
    let (stores, diagnostics) = TestStores.read(tests, default: schema)
    guard diagnostics.isEmpty else {
      return PolicyTestFileReport(
        testsSource: tests, policyPath: policyPath,
        stops: [.diagnostics(diagnostics, in: tests)])
    }
    var runners: [PolicyTestRunner] = []
    for store in stores {
      let storeSchema = schema.schema(for: store)
      let loaded = try PolicyFiles.load(policyPath, schema: storeSchema)
      guard let policy = loaded.policy else {
        let note =
          stores.count > 1 || store != schema.store
          ? [
            PolicyTestFileReport.Stop.note(
              "\(policyPath) does not check in \(TestStores.words(store)) words, which its tests "
                + "of store \(store.rawValue) are in:")
          ] : []
        return PolicyTestFileReport(
          testsSource: tests, policyPath: policyPath,
          stops: note + [.diagnostics(loaded.diagnostics, in: loaded.source)])
      }
      runners.append(
        PolicyTestRunner(policy: policy, schema: storeSchema, defaultStore: schema.store))
    }
    // Every store's tests are read before any runs: a problem in one store's tests stops the
    // file, as it does a file of one store, and a problem of the whole file is said once.
    var problems: [Diagnostic] = []
    var prepared: [(runner: PolicyTestRunner, tests: [PreparedTest])] = []
    for runner in runners {
      let (diagnostics, ready) = runner.prepare(tests)
      // A file-wide `given` is read again for each test, so its problem comes once per test.
      for diagnostic in diagnostics where !problems.contains(diagnostic) {
        problems.append(diagnostic)
      }
      prepared.append((runner, ready))
    }
    guard problems.isEmpty else {
      return PolicyTestFileReport(
        testsSource: tests, policyPath: policyPath,
        stops: [.diagnostics(problems, in: tests)])
    }
    return PolicyTestFileReport(merging: prepared.map { $0.runner.run($0.tests, in: tests) })
  }

  /// The problems the tests in `source` have before any runs (their syntax, the facts they give,
  /// the values they expect), and the tests read.
  func prepare(_ source: SourceFile) -> (diagnostics: [Diagnostic], tests: [PreparedTest]) {
    let (file, syntaxDiagnostics) = PolicyTestParser.parse(
      source, vocabulary: schema.policySchema.vocabulary)
    // Each runner runs the tests of its schema's store; another store's are another runner's,
    // read in that store's words.
    let others = file.tests.indices.filter {
      TestStores.store(file.store(of: $0), default: defaultStore) != schema.store
    }.map { file.tests[$0].span }
    var diagnostics = syntaxDiagnostics.filter { diagnostic in
      !others.contains { $0.start <= diagnostic.span.start && diagnostic.span.start < $0.end }
    }
    var prepared: [PreparedTest] = []
    for (index, test) in file.tests.enumerated()
    where TestStores.store(file.store(of: index), default: defaultStore) == schema.store {
      let facts = TestFacts(
        schema: schema, layers: [file.defaults, test.givens], policy: policy.checked)
      diagnostics += facts.diagnostics
      var checks: [ExpectationCheck] = []
      for expectation in test.expectations {
        do {
          checks.append(
            try ExpectationCheck(
              expectation, policy: policy, now: facts.values["now"], store: schema.store))
        } catch {
          diagnostics.append(error.diagnostic)
        }
      }
      prepared.append((test, facts, checks))
    }
    return (diagnostics, prepared)
  }

  /// A test with its facts and expectations read, ready to run.
  typealias PreparedTest = (test: PolicyTestCase, facts: TestFacts, checks: [ExpectationCheck])

  /// Parses and runs the tests in `source`.
  public func run(_ source: SourceFile) -> PolicyTestFileReport {
    let (diagnostics, prepared) = prepare(source)
    guard diagnostics.isEmpty else {
      return PolicyTestFileReport(
        testsSource: source, policyPath: policy.checked.source.path,
        stops: [.diagnostics(Array(Set(diagnostics)), in: source)])
    }
    return run(prepared, in: source)
  }

  /// Runs tests read from `source` without problems.
  func run(_ prepared: [PreparedTest], in source: SourceFile) -> PolicyTestFileReport {
    var report = PolicyTestFileReport(
      testsSource: source, policyPath: policy.checked.source.path)
    var coverage = PolicyCoverage(policy: policy)
    for (test, facts, checks) in prepared {
      let outcome = run(test, facts, checks, source)
      if let decision = outcome.decision { coverage.record(decision) }
      report.outcomes.append(outcome)
    }
    report.coverage = coverage
    return report
  }

  private func run(
    _ test: PolicyTestCase, _ facts: TestFacts, _ checks: [ExpectationCheck], _ source: SourceFile
  ) -> PolicyTestOutcome {
    let location = source.location(of: test.span.start)
    let origin = "\(source.path):\(location.line)"
    let decider = Decider(policy: policy, schema: schema)
    let decision: Decision
    if schema.store == .googlePlay {
      let review = facts.review()
      decision = decider.decide(
        review, facts: facts.gathered(for: review, source: origin), trace: true)
    } else {
      let request = facts.request()
      decision = decider.decide(
        request, facts: facts.gathered(for: request, source: origin), trace: true)
    }
    let failures = checks.compactMap { check -> PolicyTestFailure? in
      guard let actual = check.mismatch(decision) else { return nil }
      return PolicyTestFailure(
        expected: check.expected, actual: actual,
        location: source.location(of: check.expectation.span.start))
    }
    return PolicyTestOutcome(
      name: test.name.value, location: location, failures: failures, decision: decision)
  }

  static func read(_ path: String) throws(PolicyFiles.Failure) -> SourceFile {
    try PolicyFiles.read(path)
  }
}

/// The result of one test.
public struct PolicyTestOutcome: Sendable {
  /// The test's name.
  public let name: String
  /// Where the test starts in its file.
  public let location: SourceLocation
  /// Each `expect` the decision did not meet.
  public let failures: [PolicyTestFailure]
  /// The decision the test led to.
  public let decision: Decision?

  /// Whether every expectation was met.
  public var passed: Bool { failures.isEmpty }
}

/// One unmet expectation: what the test said, what came out, where the `expect` is written.
public struct PolicyTestFailure: Sendable, Hashable {
  /// The expectation, e.g. `refund DECLINE`.
  public let expected: String
  /// What came out instead, in the same terms.
  public let actual: String
  /// Where the expectation is written.
  public let location: SourceLocation
}
