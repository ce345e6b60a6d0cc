/// One printed line with the source offset it stands for, so comments can be put back beside it.
struct FormattedLine {
  var indent: Int
  var text: String
  /// The source offset of the line's first token: a trailing comment after it may join the line.
  let start: Int
  /// The source offset of what the line is about, after its keyword (`when`'s condition): a
  /// trailing comment between the keyword and it joins the line.
  let contentStart: Int
  /// The source offset where the line's code ends. A comment written before it, inside code the
  /// printer joins on this line, is printed on its own line above, where a second pass finds it
  /// again.
  let end: Int
  /// Whether the line is an own-line comment, which a trailing comment must not join.
  var isComment = false
  /// The comments that trail the line, in source order.
  var trailing: [String] = []

  init(_ indent: Int, _ text: String, _ start: Int, contentStart: Int? = nil, end: Int = Int.max) {
    self.indent = indent
    self.text = text
    self.start = start
    self.contentStart = contentStart ?? start
    self.end = end
  }
}

/// Puts printed declarations and the source's comments back together: own-line comments before
/// the line that followed them or that they were written inside of, trailing comments after the
/// line they followed, and one blank line wherever the source had one or more between top-level
/// items.
struct CommentWeaver {
  let source: SourceFile
  let comments: [Comment]
  private var next = 0
  private var output: [String] = []
  private var previousEnd: Int?
  /// The comment trailing the last line written, if it has one.
  private var lastLineComment: String?

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
        lastLineComment = nil
      } else {
        let text = CommentWeaver.text(of: comment)
        if let earlier = lastLineComment {
          // Two comments would share the line: the earlier goes on its own line above it.
          let index = output.count - 1
          output[index].removeLast(earlier.count + 2)
          let indent = output[index].prefix { $0 == " " }.count
          output.insert(String(repeating: " ", count: indent) + earlier, at: index)
        }
        output[output.count - 1] += "  " + text
        lastLineComment = text
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
      if let position = CommentWeaver.lineAbove(comment, in: lines) {
        var line = FormattedLine(lines[position].indent, text, comment.span.start)
        line.isComment = true
        lines.insert(line, at: position)
      } else {
        // After the code it followed, never after an own-line comment printed above that code.
        let position =
          lines.lastIndex { !$0.isComment && $0.start <= comment.span.start }
          ?? lines.firstIndex { !$0.isComment } ?? 0
        lines[position].trailing.append(text)
      }
    }
    let lastComment = lines.last?.trailing.last
    lines = CommentWeaver.withTrailingComments(lines)
    guard let first = lines.first else { return }
    appendTopLevel(first.text, start: span.start, end: span.end)
    output += lines.dropFirst().map { String(repeating: " ", count: $0.indent) + $0.text }
    lastLineComment = lastComment
  }

  /// The lines with their trailing comments: one trails its line; of several (a comment after
  /// a keyword the printer joins with what followed it on the next line, and one after that
  /// code), the last trails and the others go on their own lines above, so no two comments
  /// share a line, which a later pass could not tell apart.
  static func withTrailingComments(_ lines: [FormattedLine]) -> [FormattedLine] {
    var result: [FormattedLine] = []
    for var line in lines {
      for comment in line.trailing.dropLast() {
        var above = FormattedLine(line.indent, comment, line.start)
        above.isComment = true
        result.append(above)
      }
      if let last = line.trailing.last { line.text += "  " + last }
      line.trailing = []
      result.append(line)
    }
    return result
  }

  /// The line a comment is printed on its own line above, or nil when it trails its line.
  ///
  /// An own-line comment goes above the first line whose code does not end before it: the line
  /// after it, or the line it was written inside of (never below the last line, where the next
  /// pass would read it as a top-level comment). A trailing comment written inside code the
  /// printer joins on one line goes above that line too, so it does not join another trailing
  /// comment on it.
  static func lineAbove(_ comment: Comment, in lines: [FormattedLine]) -> Int? {
    let offset = comment.span.start
    if comment.ownLine {
      return lines.firstIndex { !$0.isComment && $0.end > offset } ?? lines.count - 1
    }
    guard let position = lines.lastIndex(where: { !$0.isComment && $0.start <= offset }),
      lines[position].contentStart < offset, offset < lines[position].end
    else { return nil }
    return position
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
