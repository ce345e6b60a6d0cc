import Foundation

/// One verb of the `reckon` tool: parses its arguments, calls the libraries, maps the result to an
/// exit code. Business rules live in the libraries, never here.
protocol Command: Sendable {
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

  /// What each exit status but 2 (a usage mistake, the same for every command) means.
  static var exitStatuses: [(code: Int32, meaning: String)] { get }

  /// The words the command takes first (`queue list`, `report rules`), for completion.
  static var subcommands: [String] { get }

  /// Runs the command; returns the process exit code.
  static func run(_ arguments: inout Arguments, _ console: Console) async throws -> Int32
}

extension Command {
  static var requiresArguments: Bool { false }

  static var subcommands: [String] { [] }

  static var exitStatuses: [(code: Int32, meaning: String)] {
    [(0, "done"), (1, "it failed, and the message says why")]
  }

  /// The help with the exit statuses, as `--help` prints it.
  static var fullHelp: String {
    let statuses =
      (exitStatuses + [
        (2, "a usage mistake: an unknown option or command, a missing or malformed value")
      ])
      .sorted { $0.code < $1.code }
    let lines = statuses.flatMap { status in
      wrapped(status.meaning, width: 88).enumerated().map { index, line in
        (index == 0
          ? "  \(status.code)".padding(toLength: 7, withPad: " ", startingAt: 0)
          : "       ") + line
      }
    }
    return help.trimmingTrailingNewlines() + "\n\nExit status:\n" + lines.joined(separator: "\n")
      + "\n"
  }

  /// `text` in lines of at most `width` characters, broken between words.
  private static func wrapped(_ text: String, width: Int) -> [String] {
    var lines: [String] = []
    var line = ""
    for word in text.split(separator: " ") {
      if !line.isEmpty, line.count + 1 + word.count > width {
        lines.append(line)
        line = ""
      }
      line += (line.isEmpty ? "" : " ") + word
    }
    return lines + (line.isEmpty ? [] : [line])
  }

  /// The options that take no value.
  static var flagNames: Set<String> { Set(options.filter { $0.value == nil }.map(\.name)) }

  /// Every option's name.
  static var optionNames: Set<String> { Set(options.map(\.name)) }
}

/// Standard output and error.
struct Console: Sendable {
  /// Whether standard error shows colours: a terminal, unless `NO_COLOR` is set or `TERM` is
  /// `dumb`; `CLICOLOR_FORCE=1` colours a pipe too. Never for a file or a pipe otherwise.
  let colour = Console.colours(descriptor: 2)
  /// Whether standard output shows colours, by the same rules.
  let colourOut = Console.colours(descriptor: 1)

  private static func colours(descriptor: Int32) -> Bool {
    let environment = ProcessInfo.processInfo.environment
    if environment["NO_COLOR"].map({ !$0.isEmpty }) == true { return false }
    if environment["CLICOLOR_FORCE"].map({ !$0.isEmpty && $0 != "0" }) == true { return true }
    return isatty(descriptor) == 1 && environment["TERM"] != "dumb"
  }

  /// A summary with its headings (the lines not indented) bold, when standard output shows
  /// colours.
  func withBoldHeadings(_ text: String) -> String {
    guard colourOut else { return text }
    return text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
      line.isEmpty || line.first == " " ? String(line) : "\u{1B}[1m\(line)\u{1B}[0m"
    }.joined(separator: "\n")
  }

  func out(_ text: String) {
    print(text, terminator: text.hasSuffix("\n") ? "" : "\n")
  }

  func error(_ text: String) {
    let line = text.hasSuffix("\n") ? text : text + "\n"
    FileHandleOutput.standardError(line)
  }
}

extension String {
  fileprivate func trimmingTrailingNewlines() -> String {
    var text = self
    while text.hasSuffix("\n") { text.removeLast() }
    return text
  }
}
