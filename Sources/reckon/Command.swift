/// One verb of the `reckon` tool: parses its arguments, calls the libraries, maps the result to an
/// exit code. Business rules live in the libraries, never here.
protocol Command {
  /// The verb, e.g. `check`.
  static var name: String { get }
  /// One line for `reckon --help`.
  static var summary: String { get }
  /// The full help text for `reckon NAME --help`.
  static var help: String { get }
  /// Every option the command reads, and every option its help names: the words never taken for
  /// a typo or for another option's value.
  static var options: [CommandOption] { get }

  /// Whether the command needs words after its name (a subcommand): called bare, it prints its
  /// usage and exits 2 before reading any file.
  static var requiresArguments: Bool { get }

  /// Runs the command; returns the process exit code.
  static func run(_ arguments: inout Arguments, _ console: Console) async throws -> Int32
}

extension Command {
  static var requiresArguments: Bool { false }

  /// The options that take no value.
  static var flagNames: Set<String> { Set(options.filter { $0.value == nil }.map(\.name)) }

  /// Every option's name.
  static var optionNames: Set<String> { Set(options.map(\.name)) }
}

/// Standard output and error.
struct Console: Sendable {
  func out(_ text: String) {
    print(text, terminator: text.hasSuffix("\n") ? "" : "\n")
  }

  func error(_ text: String) {
    let line = text.hasSuffix("\n") ? text : text + "\n"
    FileHandleOutput.standardError(line)
  }
}
