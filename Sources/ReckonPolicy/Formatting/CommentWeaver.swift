/// One printed line with the source offset it stands for, so comments can be put back beside it.
struct FormattedLine {
  var indent: Int
  var text: String
  /// The source offset of the line's first token.
  let start: Int

  init(_ indent: Int, _ text: String, _ start: Int) {
    self.indent = indent
    self.text = text
    self.start = start
  }
}

/// Puts printed declarations and the source's comments back together: own-line comments before
/// the line that followed them, trailing comments after the line they followed, and one blank
/// line wherever the source had one or more between top-level items.
struct CommentWeaver {
  let source: SourceFile
  let comments: [Comment]
  private var next = 0
  private var output: [String] = []
  private var previousEnd: Int?

  init(source: SourceFile, comments: [Comment]) {
    self.source = source
    self.comments = comments
  }

  /// Emits the top-level comments that come before `offset`.
  mutating func emitComments(before offset: Int) {
    while next < comments.count, comments[next].span.start < offset {
      let comment = comments[next]
      next += 1
      if comment.ownLine || output.isEmpty {
        appendTopLevel(
          CommentWeaver.text(of: comment), start: comment.span.start, end: comment.span.end)
      } else {
        output[output.count - 1] += "  " + CommentWeaver.text(of: comment)
      }
    }
  }

  /// Emits one declaration's lines with the comments written inside it.
  mutating func emit(_ lines: [FormattedLine], span: SourceSpan) {
    var lines = lines
    while next < comments.count, comments[next].span.start < span.end {
      let comment = comments[next]
      next += 1
      let text = CommentWeaver.text(of: comment)
      if comment.ownLine {
        let position = lines.firstIndex { $0.start > comment.span.start } ?? lines.count
        let indent = position < lines.count ? lines[position].indent : 2
        lines.insert(FormattedLine(indent, text, comment.span.start), at: max(1, position))
      } else {
        let position = lines.lastIndex { $0.start <= comment.span.start } ?? 0
        lines[position].text += "  " + text
      }
    }
    guard let first = lines.first else { return }
    appendTopLevel(first.text, start: span.start, end: span.end)
    output += lines.dropFirst().map { String(repeating: " ", count: $0.indent) + $0.text }
  }

  private mutating func appendTopLevel(_ text: String, start: Int, end: Int) {
    if let previousEnd,
      CommentWeaver.hasBlankLine(source.text(of: SourceSpan(start: previousEnd, end: start)))
    {
      output.append("")
    }
    output.append(text)
    previousEnd = end
  }

  /// The formatted file: lines joined, one final line break.
  func text() -> String {
    output.isEmpty
      ? "" : output.map { CommentWeaver.trimmedRight($0) }.joined(separator: "\n") + "\n"
  }

  static func text(of comment: Comment) -> String {
    trimmedRight("#" + comment.text)
  }

  static func hasBlankLine(_ gap: String) -> Bool {
    let segments = gap.split(separator: "\n", omittingEmptySubsequences: false)
    guard segments.count >= 3 else { return false }
    return segments.dropFirst().dropLast().contains {
      $0.allSatisfy { $0 == " " || $0 == "\t" || $0 == "\r" }
    }
  }

  static func trimmedRight(_ text: String) -> String {
    var text = Substring(text)
    while let last = text.last, last == " " || last == "\t" || last == "\r" { text.removeLast() }
    return String(text)
  }
}
