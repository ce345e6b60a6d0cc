import ReckonEngine
import ReckonPolicy

/// `reckon check [PATHS]`: loads policies and prints every diagnostic.
enum CheckCommand: Command {
  static let name = "check"
  static let summary = "Check policy files and report every error and warning"
  static let options: [CommandOption] = [
    CommandOption(
      "config", value: "FILE",
      help: "also know the custom facts (custom.*) its fact sources declare")
  ]
  static let help = """
    Usage: reckon check [PATHS...] [--config reckon.json]

    Checks each policy file (a folder means every *.policy file in it; default: policies/) and
    prints every problem as file:line:column with the source line and a caret. A folder with no
    *.policy file, and a file with no rule and no otherwise, are errors, as is a policy under
    which no request of some product type and delivery status would get a reply (decided over
    a built-in sample, as reckon serve does before a policy goes live) unless the file has the
    line '# reckon: allow-unanswered'.
    Exits 1 if any file has an error, 0 if there are only warnings or none.

    \(CommandOption.table(options, column: 17))
    """

  static func run(_ arguments: inout Arguments, _ console: Console) async throws -> Int32 {
    let schema = try CustomFactsOption.schema(&arguments)
    try arguments.rejectUnknown(positionals: .max)
    var errors = 0
    var warnings = 0
    var checked = 0
    // A path that cannot be read is one error among the others: the rest are still checked, so
    // one run reports every problem.
    // A file named twice (itself and in its folder) is checked once, so counts are of files.
    var seen: Set<String> = []
    for input in arguments.positionals.isEmpty ? ["policies"] : arguments.positionals {
      let paths: [String]
      do { paths = PolicyFiles.dropRepeats(try PolicyFiles.expand([input]), seen: &seen) } catch {
        console.error("reckon check: \(error)")
        errors += 1
        continue
      }
      for path in paths {
        let result: PolicyLoader.Result
        do {
          result = try PolicyFiles.load(path, schema: schema).withAnswerCoverage(schema: schema)
        } catch {
          console.error("reckon check: \(error)")
          errors += 1
          continue
        }
        checked += 1
        if !result.diagnostics.isEmpty { console.error(result.renderedDiagnostics()) }
        errors += result.diagnostics.filter(\.isError).count
        warnings += result.diagnostics.count - result.diagnostics.filter(\.isError).count
      }
    }
    let files = checked == 1 ? "1 file" : "\(checked) files"
    console.out(
      "checked \(files): \(errors) error\(errors == 1 ? "" : "s"), \(warnings) warning\(warnings == 1 ? "" : "s")"
    )
    return errors > 0 ? 1 : 0
  }
}
