/// Completion scripts for bash, zsh and fish, and a man page, written from the commands' own
/// names, summaries and option declarations, so they never drift from what the tool accepts.
enum ShellCompletion {
  /// A script that completes command names, then each command's options (files elsewhere).
  static func bash(_ commands: [any Command.Type]) -> String {
    let names = commands.map { $0.name }.joined(separator: " ")
    var cases: [String] = []
    for command in commands {
      let options = command.options.map { "--\($0.name)" }.joined(separator: " ")
      let words = command.subcommands.joined(separator: " ")
      cases.append("    \(command.name)) options=\"\(options) --help\"; words=\"\(words)\" ;;")
    }
    return """
      # bash completion for reckon; load it with: source <(reckon completion bash)
      _reckon() {
        local current="${COMP_WORDS[COMP_CWORD]}"
        if [ "$COMP_CWORD" -eq 1 ]; then
          COMPREPLY=($(compgen -W "\(names) --help --version" -- "$current"))
          return
        fi
        local options="" words=""
        case "${COMP_WORDS[1]}" in
      \(cases.joined(separator: "\n"))
        esac
        if [ "$COMP_CWORD" -eq 2 ] && [ -n "$words" ] && [[ "$current" != -* ]]; then
          COMPREPLY=($(compgen -W "$words" -- "$current"))
        elif [[ "$current" == -* ]]; then
          COMPREPLY=($(compgen -W "$options" -- "$current"))
        else
          COMPREPLY=($(compgen -f -- "$current"))
        fi
      }
      complete -o filenames -F _reckon reckon

      """
  }

  /// A zsh completion function (`#compdef reckon`).
  static func zsh(_ commands: [any Command.Type]) -> String {
    let described = commands.map { "    '\($0.name):\(shellQuoted($0.summary))'" }
    var cases: [String] = []
    for command in commands {
      let specs = command.options.map { option -> String in
        // An option its usage line alone explains has no line to show: no empty brackets.
        let help = option.help.first.map { "[\(zshQuoted($0))]" } ?? ""
        // A colon in the placeholder (`HOST:PORT`) would end the message part of the spec.
        let offered =
          option.choices.isEmpty ? "_files" : "(\(option.choices.joined(separator: " ")))"
        let value =
          option.value.map { ":\($0.replacingOccurrences(of: ":", with: "\\:")):\(offered)" }
          ?? ""
        return "'--\(option.name)\(help)\(value)'"
      }
      let first =
        command.subcommands.isEmpty
        ? [] : ["'1:subcommand:(\(command.subcommands.joined(separator: " ")))'"]
      cases.append(
        "    \(command.name)) _arguments \((specs + first + ["'*:file:_files'"]).joined(separator: " ")) ;;"
      )
    }
    return """
      #compdef reckon
      # zsh completion for reckon; put it on $fpath as _reckon, or: source <(reckon completion zsh)
      _reckon() {
        local -a commands
        commands=(
      \(described.joined(separator: "\n"))
        )
        if (( CURRENT == 2 )); then
          _describe 'command' commands
          return
        fi
        shift words
        (( CURRENT-- ))
        case $words[1] in
      \(cases.joined(separator: "\n"))
        esac
      }
      compdef _reckon reckon 2>/dev/null || _reckon "$@"

      """
  }

  /// fish completions (`complete -c reckon ...`).
  static func fish(_ commands: [any Command.Type]) -> String {
    var lines = [
      "# fish completion for reckon; load it with: reckon completion fish | source",
      "complete -c reckon -f",
    ]
    for command in commands {
      lines.append(
        "complete -c reckon -n __fish_use_subcommand -a \(command.name) -d '\(fishQuoted(command.summary))'"
      )
      if !command.subcommands.isEmpty {
        lines.append(
          "complete -c reckon -n '__fish_seen_subcommand_from \(command.name)' -a '\(command.subcommands.joined(separator: " "))'"
        )
      }
      for option in command.options {
        let choices = option.choices
        let takesValue =
          option.value == nil
          ? "" : choices.isEmpty ? " -r -F" : " -r -f -a '\(choices.joined(separator: " "))'"
        let described = option.help.first.map { " -d '\(fishQuoted($0))'" } ?? ""
        lines.append(
          "complete -c reckon -n '__fish_seen_subcommand_from \(command.name)' -l \(option.name)\(takesValue)\(described)"
        )
      }
    }
    return lines.joined(separator: "\n") + "\n"
  }

  /// The man page, reckon(1), in roff.
  static func manPage(_ commands: [any Command.Type], version: String) -> String {
    var page = [
      ".TH RECKON 1 \"\" \"reckon \(version)\" \"User Commands\"",
      ".SH NAME",
      "reckon \\- answers App Store and Google Play refund requests by a policy you write",
      ".SH SYNOPSIS", ".B reckon", ".I COMMAND", "[OPTIONS]", ".SH COMMANDS",
    ]
    for command in commands {
      page += [".TP", ".B \(command.name)", roff(command.summary)]
    }
    // Each command's help as `--help` prints it, laid out as there: its options are described
    // in its table or, for those the usage line explains, in its prose.
    page.append(".SH COMMAND REFERENCE")
    for command in commands {
      page += [".SS \(command.name)", ".nf"]
      // `fullHelp` ends with one line break.
      page += command.fullHelp.dropLast().split(separator: "\n", omittingEmptySubsequences: false)
        .map { roff(String($0)) }
      page.append(".fi")
    }
    page += [
      ".SH EXIT STATUS",
      "0 when the command did what it was asked; 1 when it failed, and its message says why; 2 for a usage mistake. Each command's \\-\\-help lists its own.",
      ".SH SEE ALSO",
      "docs/language.md, docs/configuration.md and docs/operations.md in Reckon's repository.",
    ]
    return page.joined(separator: "\n") + "\n"
  }

  /// Text inside single quotes.
  private static func shellQuoted(_ text: String) -> String {
    text.replacingOccurrences(of: "'", with: "'\\''")
  }

  /// An `_arguments` description inside single quotes: its brackets and colons escaped too.
  private static func zshQuoted(_ text: String) -> String {
    shellQuoted(text).replacingOccurrences(of: "[", with: "\\[")
      .replacingOccurrences(of: "]", with: "\\]").replacingOccurrences(of: ":", with: "\\:")
  }

  private static func fishQuoted(_ text: String) -> String {
    text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "\\'")
  }

  /// Text safe in a roff line: backslashes, hyphens and a leading dot or quote escaped.
  private static func roff(_ text: String) -> String {
    var escaped = text.replacingOccurrences(of: "\\", with: "\\e")
      .replacingOccurrences(of: "-", with: "\\-")
    if escaped.hasPrefix(".") || escaped.hasPrefix("'") { escaped = "\\&" + escaped }
    // groff reads its input as Latin-1 unless run through preconv: a character beyond ASCII
    // (a dash, an ellipsis in the help) is written as its Unicode escape.
    guard !escaped.unicodeScalars.allSatisfy(\.isASCII) else { return escaped }
    return escaped.unicodeScalars.map { scalar in
      scalar.isASCII
        ? String(scalar)
        : "\\[u" + String(scalar.value, radix: 16, uppercase: true).leftPadded(4) + "]"
    }.joined()
  }
}

extension String {
  /// The text with zeros before it up to `width` characters.
  fileprivate func leftPadded(_ width: Int) -> String {
    String(repeating: "0", count: max(0, width - count)) + self
  }
}
