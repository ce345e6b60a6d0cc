import Foundation
import ReckonEngine
import ReckonFacts
import ReckonPolicy
import ReckonSupport

extension GoLiveDoctor {
  /// For each policy file the apps name (once, however many apps share it): it checks as
  /// `reckon serve` checks it before it goes live, and the tests beside it pass, as
  /// `reckon test` runs them.
  func policyChecks(_ configuration: ReckonConfiguration) -> [DoctorCheck] {
    let schema: FactSchema
    do {
      schema = try FactSourceSetup.schema(
        configuration.factSources, currencies: configuration.currencies)
    } catch {
      return [
        .fail("policy", error.description),
        .skip("policy tests", "the policy's facts cannot be known"),
      ]
    }
    var seen: Set<String> = []
    var tested: Set<String> = []
    var checks: [DoctorCheck] = []
    // Each file in the words of the store whose apps it decides for; a file both share, twice.
    let files =
      configuration.apps.map { ($0.policyPath, schema) }
      + configuration.googlePlayApps.map { ($0.policyPath, schema.schema(for: .googlePlay)) }
    for (path, schema) in files where seen.insert("\(path)|\(schema.store)").inserted {
      // The command that checks the file as here: in the words of the stores it decides for.
      let command =
        configuration.path.map { "reckon check --config \($0) \(path)" }
        ?? "reckon check\(schema.store == .googlePlay ? " --store googlePlay" : "") \(path)"
      let checked = policyCheck(
        path, schema: schema, limit: configuration.fileLimits.policy, command: command)
      checks.append(checked)
      if checked.mark == .fail {
        checks.append(.skip("policy tests", "\(path) does not check"))
      } else if tested.insert(path).inserted {
        // Once per file, as `reckon test` runs it: each test in its own store's words.
        checks.append(testsCheck(path, schema: schema.schema(for: .appStore)))
      }
    }
    return checks
  }

  private func policyCheck(
    _ path: String, schema: FactSchema, limit: FileSizeLimit, command: String
  ) -> DoctorCheck {
    let file: SourceFile
    do { file = try PolicyFiles.read(path, limit: limit) } catch {
      return .fail("policy", error.description)
    }
    var loaded = PolicyLoader.load(file, schema: schema.policySchema)
    if schema.store == .appStore { loaded = loaded.withAnswerCoverage(schema: schema) }
    let errors = loaded.diagnostics.filter(\.isError)
    let warnings = loaded.diagnostics.count - errors.count
    let warned = "\(warnings) warning\(warnings == 1 ? "" : "s")"
    if let first = errors.first {
      let place = file.location(of: first.span.start)
      return .fail(
        "policy",
        "\(path): \(errors.count) error\(errors.count == 1 ? "" : "s"), the first at \(place): "
          + "\(first.message) (\(command) shows all)")
    }
    guard loaded.policy != nil else {
      return .fail("policy", "\(path) does not compile (\(command) says why)")
    }
    return .ok(
      "policy",
      "\(path) checks (no errors, \(warned)\(warnings > 0 ? ": \(command) shows them" : ""))")
  }

  private func testsCheck(_ policyPath: String, schema: FactSchema) -> DoctorCheck {
    let testsPath =
      (policyPath.hasSuffix(".policy") ? String(policyPath.dropLast(".policy".count)) : policyPath)
      + ".tests"
    guard FileManager.default.fileExists(atPath: testsPath) else {
      return .skip("policy tests", "no \(testsPath) beside the policy: write its tests there")
    }
    let report: PolicyTestFileReport
    do { report = try PolicyTestRunner.run(testsPath: testsPath, schema: schema) } catch {
      return .fail("policy tests", error.description)
    }
    if let problem = report.problems.first {
      return .fail("policy tests", "\(testsPath) cannot run: \(problem)")
    }
    let count = report.outcomes.count
    guard let failed = report.outcomes.first(where: { !$0.passed }) else {
      return .ok("policy tests", "\(testsPath): \(count) test\(count == 1 ? "" : "s") passed")
    }
    let why = failed.failures.first.map { ": expected \($0.expected), got \($0.actual)" } ?? ""
    return .fail(
      "policy tests",
      "\(testsPath): \(report.failedCount) of \(count) failed, the first \"\(failed.name)\" "
        + "(line \(failed.location.line))\(why) (reckon test \(testsPath) shows the trace)")
  }
}
