import ReckonEngine

/// `reckon completion bash|zsh|fish|man`: shell completions and the man page.
enum CompletionCommand: Command {
  static let name = "completion"
  static let subcommands = ["bash", "zsh", "fish", "man"]
  static let summary = "Print shell completions (bash, zsh, fish) or the man page (man)"
  static let options: [CommandOption] = []
  static let requiresArguments = true
  static let help = """
    Usage: reckon completion bash|zsh|fish|man

    Prints a completion script for the shell, or reckon(1) in roff, written from the commands'
    own options. For example: source <(reckon completion bash), reckon completion fish | source,
    or reckon completion man > /usr/local/share/man/man1/reckon.1.
    """

  static func run(_ arguments: inout Arguments, _ console: Console) async throws -> Int32 {
    try arguments.rejectUnknown(positionals: 1)
    let all = Commands.all
    switch arguments.positionals.first {
    case "bash": console.out(ShellCompletion.bash(all))
    case "zsh": console.out(ShellCompletion.zsh(all))
    case "fish": console.out(ShellCompletion.fish(all))
    case "man": console.out(ShellCompletion.manPage(all, version: ReckonVersion.release))
    default: throw UsageError("name the shell: bash, zsh or fish, or man for the man page")
    }
    return 0
  }
}
