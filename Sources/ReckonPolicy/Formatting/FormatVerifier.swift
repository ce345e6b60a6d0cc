/// The formatter's safety net: formatted text must parse, and parse to the same declarations as the
/// original (spans and comments aside), or it is refused, so `reckon fmt` never writes a policy
/// that no longer loads or that means something else.
struct FormatVerifier {
  let original: PolicySyntax
  let source: SourceFile
  let vocabulary: PolicyVocabulary

  /// Throws, pointing at the first declaration that would change, when `formatted` is not faithful.
  func verify(_ formatted: String) throws(PolicyFormatError) {
    let output = SourceFile(path: source.path, text: formatted)
    let (reparsed, diagnostics) = Parser.parse(output, vocabulary: vocabulary)
    let before = original.declarations.map(\.withoutSpans)
    let after = reparsed.declarations.map(\.withoutSpans)
    let syntaxError = diagnostics.first(where: \.isError)
    guard syntaxError != nil || before != after else { return }
    let changed =
      before.indices.first { $0 >= after.count || before[$0] != after[$0] } ?? before.count - 1
    let span =
      original.declarations.indices.contains(changed)
      ? original.declarations[changed].formattingSpan : SourceSpan(start: 0, end: 0)
    let hint: String
    if let syntaxError {
      let location = output.location(of: syntaxError.span.start)
      hint =
        "formatted, line \(location.line) would read '\(output.lineText(location.line))': "
        + syntaxError.message + "; please report this"
    } else {
      hint = "the formatted text would parse differently; please report this"
    }
    throw PolicyFormatError(
      source: source,
      refusal: PolicyFormatError.Refusal(
        message: "fmt would change what this means, so the file is left as it is",
        span: SourceSpan(start: span.start, end: min(span.end, lineEnd(after: span.start))),
        hint: hint))
  }

  /// The end of the line `offset` is on, so the caret stays on one line.
  private func lineEnd(after offset: Int) -> Int {
    var end = offset
    while end < source.bytes.count, source.bytes[end] != UInt8(ascii: "\n") { end += 1 }
    return end
  }
}
