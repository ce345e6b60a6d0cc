extension Parser {
  /// One error for a file that is plainly not a policy, JSON (a configuration, request or facts
  /// file) or a tests file, given where a policy was expected: what it is and what to do with it,
  /// instead of a screen of syntax errors about `{` or `test`. Only the first character or word
  /// that is not a blank or a comment is looked at.
  static func otherKindOfFile(_ source: SourceFile) -> Diagnostic? {
    let bytes = source.bytes
    let offset = source.tokenStart(after: bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0)
    guard offset < bytes.count else { return nil }
    guard bytes[offset] == UInt8(ascii: "{") || bytes[offset] == UInt8(ascii: "[") else {
      return testsFileStart(source, at: offset) ?? unlikePolicy(source)
    }
    return Diagnostic(
      .notAPolicy, .error, "this is JSON, not a policy",
      at: SourceSpan(start: offset, end: offset + 1),
      hint:
        "a policy is written in Reckon's policy language (docs/language.md); configuration "
        + "is read with --config, a request with --request and facts with --facts")
  }

  /// The error for a file in which no line begins with a word of the language (`rule`, `when`,
  /// `otherwise`, a comment) or a misspelling of one: whatever it is (a password file, a log, a binary named by
  /// mistake), nothing of it is quoted, for it may hold secrets.
  private static func unlikePolicy(_ source: SourceFile) -> Diagnostic? {
    let bytes = source.bytes
    var lineStart = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
    while lineStart < bytes.count {
      var position = lineStart
      while position < bytes.count, bytes[position] == 0x20 || bytes[position] == 0x09 {
        position += 1
      }
      var end = position
      while end < bytes.count, (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(bytes[end]) {
        end += 1
      }
      if position < bytes.count, bytes[position] == UInt8(ascii: "#") { return nil }
      if end > position, end == bytes.count || !Self.continuesWord(bytes[end]) {
        let word = String(decoding: bytes[position..<end], as: UTF8.self)
        // A misspelt `rule` is a policy with a typo, which the parser points at with a hint.
        if Parser.reservedWords.contains(word)
          || Suggestions.closest(to: word, among: Array(Parser.declarationWords)) != nil
        {
          return nil
        }
      }
      guard let next = bytes[position...].firstIndex(of: 0x0A) else { break }
      lineStart = next + 1
    }
    return Diagnostic(
      .notAPolicy, .error,
      "this does not look like a policy: no line begins with a word of the policy language "
        + "('rule', 'when', 'otherwise') or a comment; none of it is shown",
      at: SourceSpan(start: 0, end: 0),
      hint: "check the path; a policy is written in Reckon's policy language (docs/language.md)",
      quotesSource: false)
  }

  /// Whether `byte` goes on a word, so that `rules:` or `rule_1` are not taken for `rule`.
  private static func continuesWord(_ byte: UInt8) -> Bool {
    (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
      || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
      || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "_")
      || byte == UInt8(ascii: ":") || byte == UInt8(ascii: "=")
  }

  /// The error for a tests file, whose first clause is `test "NAME"` or a file-wide `given`.
  private static func testsFileStart(_ source: SourceFile, at offset: Int) -> Diagnostic? {
    let bytes = source.bytes
    var end = offset
    while end < bytes.count, (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(bytes[end]) {
      end += 1
    }
    let word = String(decoding: bytes[offset..<end], as: UTF8.self)
    let next = end < bytes.count ? bytes[end] : 0
    let separated = next == UInt8(ascii: " ") || next == UInt8(ascii: "\t")
    guard
      (word == "test" && (separated || next == UInt8(ascii: "\"")))
        || (word == "given" && separated)
    else { return nil }
    return Diagnostic(
      .notAPolicy, .error, "this is a policy tests file, not a policy",
      at: SourceSpan(start: offset, end: end), hint: testsFileHint(source.path))
  }

  /// How to run a tests file found at `path`. `reckon test` runs NAME.tests against the NAME.policy
  /// beside it, so a tests file saved under another name (`tests.policy`) must be renamed first:
  /// `reckon test tests.policy` would look for `tests.tests`.
  private static func testsFileHint(_ path: String) -> String {
    guard path.hasSuffix(".tests") else {
      return "save it as NAME.tests beside the policy NAME.policy it tests, then run its tests "
        + "with: reckon test NAME.tests"
    }
    return "run its tests with: reckon test \(path)"
  }
}
