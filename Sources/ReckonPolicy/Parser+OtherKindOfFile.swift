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
      return testsFileStart(source, at: offset)
    }
    return Diagnostic(
      .notAPolicy, .error, "this is JSON, not a policy",
      at: SourceSpan(start: offset, end: offset + 1),
      hint:
        "a policy is written in Reckon's policy language (docs/language.md); configuration "
        + "is read with --config, a request with --request and facts with --facts")
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
