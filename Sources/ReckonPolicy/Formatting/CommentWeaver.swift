/// One printed line with the source offset it stands for, so comments can be put back beside it.
struct FormattedLine {
  var indent: Int
  var text: String
  /// The source offset of the line's first token: a trailing comment after it may join the line.
  let start: Int
  /// The source offset of what the line is about, after its keyword (`when`'s condition): an
  /// own-line comment before it is printed above the line.
  let contentStart: Int
  /// Whether the line is an own-line comment, which a trailing comment must not join.
  var isComment = false

  init(_ indent: Int, _ text: String, _ start: Int, contentStart: Int? = nil) {
    self.indent = indent
    self.text = text
    self.start = start
    self.contentStart = contentStart ?? start
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
        let position = lines.firstIndex { $0.contentStart > comment.span.start } ?? lines.count
        let indent = position < lines.count ? lines[position].indent : 2
        var line = FormattedLine(indent, text, comment.span.start)
        line.isComment = true
        lines.insert(line, at: max(1, position))
      } else {
        // After the code it followed, never after an own-line comment printed above that code.
        let position = lines.lastIndex { !$0.isComment && $0.start <= comment.span.start } ?? 0
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
    // In Swift "\r\n" is one Character, so a CRLF file's line breaks are not "\n".
    let segments = gap.split(
      omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" })
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
