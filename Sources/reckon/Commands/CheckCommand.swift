import ReckonEngine
import ReckonPolicy
import ReckonTools

/// `reckon check [PATHS]`: loads policies and prints every diagnostic.
enum CheckCommand: Command {
  static let name = "check"
  static let summary = "Check policy files and report every error and warning"
  static let options: [CommandOption] = [
    CommandOption(
      "config", value: "FILE",
      help: "also know the custom facts (custom.*) its fact sources declare"),
    CommandOption(
      "format", value: "FORMAT",
      help: "text (default), json, or sarif (SARIF 2.1.0, for code scanning and editors)"),
    CommandOption(
      "store", value: "STORE",
      help: "appStore (default) or googlePlay: whose words the policies are written in"),
  ]
  static let help = """
    Usage: reckon check [PATHS...] [--config reckon.json] [--store appStore|googlePlay]
                        [--format text|json|sarif]

    Checks each policy file (a folder means every *.policy file in it; default: the policies
    --config's apps name, else policies/) and prints every problem as file:line:column with
    the source line and a caret. A folder with no *.policy file, and a file with no rule and
    no otherwise, are errors, as is a policy under
    which no request of some product type and delivery status would get a reply (decided over
    a built-in sample, as reckon serve does before a policy goes live) unless the file has the
    line '# reckon: allow-unanswered'.
    A policy is checked in the App Store's words, or Google Play's with --store googlePlay; with
    --config, each file in the words of the stores whose apps it decides for (both, for a file
    one App Store app and one Google Play app share).
    Each problem has a code (error[P0306]); reckon explain CODE says what it means. With
    --format json or sarif the problems go to standard output as one document, and nothing else.

    \(CommandOption.table(options, column: 17))
    """

  static let exitStatuses: [(code: Int32, meaning: String)] = [
    (0, "no file has an error (warnings or none)"),
    (1, "a file has an error or a path cannot be read"),
  ]

  static func run(_ arguments: inout Arguments, _ console: Console) async throws -> Int32 {
    let (schema, stores, configured) = try CustomFactsOption.stores(&arguments)
    let format =
      try arguments.option("format").map { given throws(UsageError) in
        guard let format = Format(rawValue: given) else {
          throw UsageError("--format must be text, json or sarif")
        }
        return format
      } ?? .text
    try arguments.rejectUnknown(positionals: .max)
    var results: [PolicyLoader.Result] = []
    var failures: [DiagnosticDocument.Failure] = []
    // A path that cannot be read is one error among the others: the rest are still checked, so
    // one run reports every problem.
    // A file named twice (itself and in its folder) is checked once, so counts are of files.
    var seen: Set<String> = []
    // With no paths, the policies the configuration's apps decide by, else policies/.
    let inputs =
      !arguments.positionals.isEmpty
      ? arguments.positionals : configured.isEmpty ? ["policies"] : configured
    for input in inputs {
      let paths: [String]
      do { paths = PolicyFiles.dropRepeats(try PolicyFiles.expand([input]), seen: &seen) } catch {
        failures.append(.init(path: input, message: "\(error)"))
        if format == .text { console.error("reckon check: \(error)") }
        continue
      }
      for path in paths {
        let checkedFor = stores(path)
        for store in checkedFor {
          let storeSchema = schema.schema(for: store)
          var result: PolicyLoader.Result
          do { result = try PolicyFiles.load(path, schema: storeSchema) } catch {
            failures.append(.init(path: path, message: "\(error)"))
            if format == .text { console.error("reckon check: \(error)") }
            break
          }
          if store == .appStore { result = result.withAnswerCoverage(schema: storeSchema) }
          results.append(result)
          if format == .text, !result.diagnostics.isEmpty {
            if checkedFor.count > 1 {
              console.error("\(path), in \(storeSchema.policySchema.vocabulary.store)'s words:")
            }
            console.error(result.renderedDiagnostics(colour: console.colour))
          }
        }
      }
    }
    let all = results.flatMap(\.diagnostics)
    let errors = all.filter(\.isError).count + failures.count
    let warnings = all.count - all.filter(\.isError).count
    switch format {
    case .text:
      // A file checked in both stores' words is one file.
      let checked = Set(results.map(\.source.path)).count
      let files = checked == 1 ? "1 file" : "\(checked) files"
      console.out(
        "checked \(files): \(errors) error\(errors == 1 ? "" : "s"), \(warnings) warning\(warnings == 1 ? "" : "s")"
      )
    case .json:
      console.out(DiagnosticDocument.json(results, failures: failures))
    case .sarif:
      console.out(
        DiagnosticDocument.sarif(results, failures: failures, toolVersion: ReckonVersion.release))
    }
    return errors > 0 ? 1 : 0
  }

  /// What `--format` may say.
  enum Format: String {
    case text, json, sarif
  }
}
