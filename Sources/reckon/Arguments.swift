import ReckonPolicy

/// The words after a command's name: options (`--name value` or `--name=value`), flags (`--name`)
/// and positional arguments, with errors that say which word was wrong.
struct Arguments {
  private(set) var positionals: [String] = []
  private var options: [String: [String]] = [:]
  private var flags: Set<String> = []
  private let flagNames: Set<String>
  /// The options the command declares: never taken for a typo of another option, though the
  /// command may read them only after the one that is missing.
  private let documented: Set<String>
  private var consumed: Set<String> = []
  /// Options read as taking one value that were given more than once: which one was meant is
  /// not for the tool to guess.
  private var repeated: Set<String> = []
  /// Options written with no value after them: last, or before another option the command
  /// knows. Whether that is a missing value or a mistyped flag is only known once the command
  /// has said which options it reads.
  private var valueless: Set<String> = []

  /// Splits `words`, treating the names in `flagNames` as flags that take no value;
  /// `documented` are the options the command declares.
  init(_ words: [String], flagNames: Set<String>, documented: Set<String> = []) throws(UsageError) {
    self.flagNames = flagNames
    self.documented = documented
    var index = 0
    while index < words.count {
      let word = words[index]
      index += 1
      // `--` ends the options: what follows is positional, a file named `--x.policy` too.
      if word == "--" {
        positionals += words[index...]
        break
      }
      guard word.hasPrefix("--"), word.count > 2 else {
        positionals.append(word)
        continue
      }
      var name = String(word.dropFirst(2))
      if let equals = name.firstIndex(of: "=") {
        let value = String(name[name.index(after: equals)...])
        name = String(name[..<equals])
        // `--force=yes` read as an option would be dropped without a word: a flag is there or not.
        guard !flagNames.contains(name) else {
          throw UsageError("--\(name) takes no value; write --\(name) alone")
        }
        options[name, default: []].append(try Self.given(value, for: name))
      } else if flagNames.contains(name) {
        flags.insert(name)
      } else if index < words.count, !names(words[index]) {
        options[name, default: []].append(try Self.given(words[index], for: name))
        index += 1
      } else {
        // `--bogus --policy p`: the known option after an unknown one is not its value.
        valueless.insert(name)
      }
    }
  }

  /// `value`, refused when it is empty or blank: most often a shell variable that was not set,
  /// and `--out ""` would otherwise write into the folder the process runs in, or `/`.
  private static func given(_ value: String, for name: String) throws(UsageError) -> String {
    guard !value.allSatisfy(\.isWhitespace) else {
      throw UsageError("--\(name) was given an empty value; give it one")
    }
    return value
  }

  /// Whether `word` is `--NAME` or `--NAME=…` for an option or flag the command knows.
  private func names(_ word: String) -> Bool {
    guard word.hasPrefix("--") else { return false }
    let name = word.dropFirst(2).prefix { $0 != "=" }
    return documented.contains(String(name)) || flagNames.contains(String(name))
  }

  mutating func flag(_ name: String) -> Bool {
    assert(flagNames.contains(name), "--\(name) is read as a flag but not declared as one")
    consumed.insert(name)
    return flags.contains(name)
  }

  /// Every value of an option that may be given several times, in order.
  mutating func options(_ name: String) -> [String] {
    assert(documented.contains(name), "--\(name) is read but not declared")
    consumed.insert(name)
    return options[name] ?? []
  }

  mutating func option(_ name: String) -> String? {
    assert(documented.contains(name), "--\(name) is read but not declared")
    assert(!flagNames.contains(name), "--\(name) is read as an option but declared as a flag")
    consumed.insert(name)
    if (options[name]?.count ?? 0) > 1 { repeated.insert(name) }
    return options[name]?.last
  }

  /// The value of an option the command cannot run without. When it is missing because it was
  /// mistyped (`--polcy`), the unknown option is named, as it is the cause.
  mutating func required(_ name: String) throws(UsageError) -> String {
    if valueless.contains(name), options[name] == nil {
      throw UsageError("--\(name) needs a value")
    }
    guard let value = option(name) else {
      let given = Set(options.keys).union(flags).union(valueless)
        .subtracting(consumed).subtracting(flagNames).subtracting(documented)
      if let typo = given.sorted().first(where: {
        Suggestions.closest(to: $0, among: [name]) != nil
      }) {
        throw UsageError("unknown option --\(typo) (did you mean --\(name)?)")
      }
      throw UsageError("missing --\(name)")
    }
    return value
  }

  /// Fails on any option or flag no command asked for, so typos do not pass silently; on an
  /// option of one value given several times, which the last would otherwise silently win; and
  /// on positional arguments beyond the `positionals` the command takes, so a stray word is not
  /// silently ignored.
  func rejectUnknown(positionals allowed: Int = 0) throws(UsageError) {
    let missingValue = valueless.filter { consumed.contains($0) && options[$0] == nil }
    if let missing = missingValue.sorted().first { throw UsageError("--\(missing) needs a value") }
    if let twice = repeated.sorted().first {
      let values = (options[twice] ?? []).map { "'\($0)'" }.joined(separator: ", ")
      throw UsageError(
        "--\(twice) is given \(options[twice]?.count ?? 0) times (\(values)): give it once")
    }
    let unknown = Set(options.keys).union(flags).union(valueless).subtracting(consumed)
    if let first = unknown.sorted().first {
      // Never suggested as a fix for itself: the help may name it for another command.
      let known = consumed.union(flagNames).subtracting([first]).sorted()
      let hint = Suggestions.closest(to: first, among: known).map { " (did you mean --\($0)?)" }
      throw UsageError("unknown option --\(first)" + (hint ?? ""))
    }
    if positionals.count > allowed {
      let stray = positionals[allowed...].map { "'\($0)'" }.joined(separator: " ")
      throw UsageError(
        allowed == 0
          ? "unexpected argument \(stray): this command takes only options"
          : "unexpected argument \(stray)")
    }
  }
}

/// A mistake in how a command was called.
struct UsageError: Error, CustomStringConvertible {
  let description: String

  init(_ description: String) {
    self.description = description
  }
}
