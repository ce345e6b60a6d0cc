/// One option a command takes: `--name VALUE`, or a flag when it takes no value, with the lines
/// of help its command's options table prints for it.
struct CommandOption: Sendable {
  /// The name, without the dashes.
  let name: String
  /// What the value is called in the help (`FILE`), or nil for a flag.
  let value: String?
  /// Its lines in the options table; empty for an option the usage line alone explains.
  let help: [String]
  /// The values shell completion offers for it: those given, else those its placeholder lists
  /// (`text|json`); none for a free value, whose completion offers file names.
  let choices: [String]

  init(_ name: String, value: String? = nil, help: [String] = [], choices: [String] = []) {
    self.name = name
    self.value = value
    self.help = help
    self.choices = choices.isEmpty ? value.map(Self.listed) ?? [] : choices
  }

  init(_ name: String, value: String? = nil, help: String) {
    self.init(name, value: value, help: [help])
  }

  /// The values a placeholder lists, as in `text|json`; none for a free value.
  private static func listed(_ placeholder: String) -> [String] {
    let parts = placeholder.split(separator: "|").map(String.init)
    return parts.count > 1 && parts.allSatisfy { $0.allSatisfy { $0.isLetter || $0 == "-" } }
      ? parts : []
  }

  /// The options table of a help text: each option with its help, the help lines starting at
  /// `column` (by default two spaces after the longest `--name VALUE`).
  static func table(_ options: [CommandOption], column: Int? = nil) -> String {
    let shown = options.filter { !$0.help.isEmpty }
    let heads = shown.map { "--\($0.name)" + ($0.value.map { " \($0)" } ?? "") }
    let width = column ?? (heads.map(\.count).max() ?? 0) + 2
    var lines: [String] = []
    for (head, option) in zip(heads, shown) {
      lines.append(
        head + String(repeating: " ", count: max(width - head.count, 1)) + option.help[0])
      for line in option.help.dropFirst() {
        lines.append(String(repeating: " ", count: width) + line)
      }
    }
    return lines.joined(separator: "\n")
  }
}
