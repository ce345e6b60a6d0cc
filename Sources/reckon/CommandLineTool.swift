import ReckonPolicy

/// Finds the verb, handles `--help`, runs it and turns errors into messages and exit codes:
/// 0 success, 1 the command's own failure (a policy error, a failed test), 2 a usage mistake.
struct CommandLineTool {
  let commands: [any Command.Type]
  let console = Console()

  func run(_ words: [String]) async -> Int32 {
    guard let verb = words.first else {
      console.out(overview())
      return 2
    }
    switch verb {
    case "--help", "-h": return help(Array(words.dropFirst()))
    case "help": return help(Array(words.dropFirst()))
    case "--version", "-V": return await run(["version"] + words.dropFirst())
    default: break
    }
    guard let command = find(verb) else {
      // One line: the whole overview would bury the suggestion.
      console.error(
        "reckon: unknown command '\(verb)'\(suggestion(for: verb)); 'reckon --help' lists them")
      return 2
    }
    let rest = Self.expandingShortOptions(Array(words.dropFirst()), for: command)
    if rest.contains("--help") || rest.contains("-h") {
      console.out(command.fullHelp)
      return 0
    }
    if rest.isEmpty, command.requiresArguments {
      console.error(command.fullHelp)
      return 2
    }
    do {
      var arguments = try Arguments(
        rest, flagNames: command.flagNames, documented: command.optionNames)
      return try await command.run(&arguments, console)
    } catch let error as UsageError {
      console.error("reckon \(verb): \(error.description)\nRun 'reckon \(verb) --help' for usage.")
      return 2
    } catch {
      console.error("reckon \(verb): \(error)")
      return 1
    }
  }

  /// The short options and the long ones they stand for, where the command has the long one.
  static let shortOptions = [
    "-p": "policy", "-f": "format", "-c": "config", "-q": "quiet", "-r": "request",
  ]

  /// `words` with each short option (`-p`) written long (`--policy`), up to `--`.
  static func expandingShortOptions(_ words: [String], for command: any Command.Type) -> [String] {
    var expanded: [String] = []
    for (index, word) in words.enumerated() {
      if word == "--" { return expanded + words[index...] }
      if let long = shortOptions[word], command.optionNames.contains(long) {
        expanded.append("--" + long)
      } else {
        expanded.append(word)
      }
    }
    return expanded
  }

  /// `reckon help [COMMAND]`: the overview, or the command's help; a name that is no command is
  /// a usage mistake, not a request for the overview.
  private func help(_ words: [String]) -> Int32 {
    guard let name = words.first, name != "--help", name != "-h" else {
      console.out(overview())
      return 0
    }
    guard let command = find(name) else {
      console.error(
        "reckon help: unknown command '\(name)'\(suggestion(for: name)); 'reckon --help' lists them"
      )
      return 2
    }
    console.out(command.fullHelp)
    return 0
  }

  /// ` (did you mean 'check'?)` for a mistyped command name, or nothing.
  private func suggestion(for name: String) -> String {
    Suggestions.closest(to: name, among: commands.map { $0.name }).map {
      " (did you mean '\($0)'?)"
    }
      ?? ""
  }

  private func find(_ name: String) -> (any Command.Type)? {
    commands.first { $0.name == name }
  }

  private func overview() -> String {
    var width = 0
    for command in commands { width = max(width, command.name.count) }
    var lines: [String] = []
    for command in commands {
      lines.append(
        "  " + command.name + String(repeating: " ", count: width + 2 - command.name.count)
          + command.summary)
    }
    return """
      reckon: answers App Store refund requests by a policy you write.

      Usage: reckon COMMAND [OPTIONS]

      Commands:
      \(lines.joined(separator: "\n"))

      Run 'reckon COMMAND --help' for a command's options.
      """
  }
}
