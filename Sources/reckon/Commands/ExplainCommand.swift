import ReckonPolicy
import ReckonTools

/// `reckon explain CODE`: what a problem's code means, with an example.
enum ExplainCommand: Command {
  static let name = "explain"
  static let summary = "Say what a problem's code (error[P0306]) means, with an example"
  static let options: [CommandOption] = [
    CommandOption("list", help: "list every code with its name and meaning")
  ]
  static let help = """
    Usage: reckon explain CODE
           reckon explain --list

    Prints what the problem with CODE means (P0306, or its name, unknown-fact), an example
    policy that has it, and what reckon check prints for that example. --list prints every code
    with its name and meaning.
    A code no problem has is a usage mistake.
    """

  static func run(_ arguments: inout Arguments, _ console: Console) async throws -> Int32 {
    let list = arguments.flag("list")
    try arguments.rejectUnknown(positionals: list ? 0 : 1)
    if list {
      console.out(DiagnosticExplanation.catalogue())
      return 0
    }
    guard let given = arguments.positionals.first else {
      throw UsageError("name a code, as in reckon explain P0306, or list them with --list")
    }
    guard let id = DiagnosticID(codeOrName: given) else {
      let names = DiagnosticID.allCases.map(\.rawValue) + DiagnosticID.allCases.map(\.code)
      let hint = Suggestions.closest(to: given, among: names).map { " (did you mean '\($0)'?)" }
      throw UsageError(
        "no problem has the code '\(given)'\(hint ?? ""); reckon explain --list lists them")
    }
    console.out(DiagnosticExplanation.text(for: id))
    return 0
  }
}
