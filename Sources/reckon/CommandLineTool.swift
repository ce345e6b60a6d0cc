/// Finds the verb, handles `--help`, runs it and turns errors into messages and exit codes:
/// 0 success, 1 the command's own failure (a policy error, a failed test), 2 a usage mistake.
struct CommandLineTool {
  let commands: [any Command.Type]
  let console = Console()

  func run(_ words: [String]) async -> Int32 {
    guard let verb = words.first, verb != "--help", verb != "-h", verb != "help" else {
      if words.count >= 2, words[0] == "help", let command = find(words[1]) {
        console.out(command.help)
        return 0
      }
      console.out(overview())
      return words.isEmpty ? 2 : 0
    }
    guard let command = find(verb) else {
      console.error("reckon: unknown command '\(verb)'\n\n" + overview())
      return 2
    }
    let rest = Array(words.dropFirst())
    if rest.contains("--help") || rest.contains("-h") {
      console.out(command.help)
      return 0
    }
    do {
      var arguments = try Arguments(rest, flagNames: command.flagNames)
      return try await command.run(&arguments, console)
    } catch let error as UsageError {
      console.error("reckon \(verb): \(error.description)\nRun 'reckon \(verb) --help' for usage.")
      return 2
    } catch {
      console.error("reckon \(verb): \(error)")
      return 1
    }
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
