/// The words after a command's name: options (`--name value` or `--name=value`), flags (`--name`)
/// and positional arguments, with errors that say which word was wrong.
struct Arguments {
  private(set) var positionals: [String] = []
  private var options: [String: [String]] = [:]
  private var flags: Set<String> = []
  private var consumed: Set<String> = []

  /// Splits `words`, treating the names in `flagNames` as flags that take no value.
  init(_ words: [String], flagNames: Set<String>) throws(UsageError) {
    var index = 0
    while index < words.count {
      let word = words[index]
      index += 1
      guard word.hasPrefix("--"), word.count > 2 else {
        positionals.append(word)
        continue
      }
      var name = String(word.dropFirst(2))
      if let equals = name.firstIndex(of: "=") {
        let value = String(name[name.index(after: equals)...])
        name = String(name[..<equals])
        options[name, default: []].append(value)
      } else if flagNames.contains(name) {
        flags.insert(name)
      } else {
        guard index < words.count else { throw UsageError("--\(name) needs a value") }
        options[name, default: []].append(words[index])
        index += 1
      }
    }
  }

  mutating func flag(_ name: String) -> Bool {
    consumed.insert(name)
    return flags.contains(name)
  }

  mutating func option(_ name: String) -> String? {
    consumed.insert(name)
    return options[name]?.last
  }

  mutating func required(_ name: String) throws(UsageError) -> String {
    guard let value = option(name) else { throw UsageError("missing --\(name)") }
    return value
  }

  /// Fails on any option or flag no command asked for, so typos do not pass silently.
  func rejectUnknown() throws(UsageError) {
    let unknown = Set(options.keys).union(flags).subtracting(consumed)
    if let first = unknown.sorted().first { throw UsageError("unknown option --\(first)") }
  }
}

/// A mistake in how a command was called.
struct UsageError: Error, CustomStringConvertible {
  let description: String

  init(_ description: String) {
    self.description = description
  }
}
