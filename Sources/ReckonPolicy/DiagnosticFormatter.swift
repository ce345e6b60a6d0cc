import ReckonSupport

/// Renders diagnostics as `file:line:col: severity[code]: message`, the source line, a caret under the
/// span and a hint line, the way compilers print them.
public struct DiagnosticFormatter: Sendable {
  /// Whether to colour the severity, the caret and the hint for a terminal (ANSI escapes).
  public let colour: Bool

  /// Creates a formatter; `colour` for a terminal that shows ANSI colours.
  public init(colour: Bool = false) {
    self.colour = colour
  }

  /// `text` in the ANSI style `code` when colouring.
  private func styled(_ text: String, _ code: String) -> String {
    colour ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
  }

  /// Renders every diagnostic in source order, separated by blank lines.
  public func render(_ diagnostics: [Diagnostic], in source: SourceFile) -> String {
    diagnostics
      .sorted { ($0.span.start, $0.span.end) < ($1.span.start, $1.span.end) }
      .map { render($0, in: source) }
      .joined(separator: "\n")
  }

  /// Renders one diagnostic with its source line and caret, its code beside its severity
  /// (`error[P0301]`) for `reckon explain`.
  public func render(_ diagnostic: Diagnostic, in source: SourceFile) -> String {
    let label = styled(
      "\(diagnostic.severity.rawValue)[\(diagnostic.id.code)]",
      diagnostic.severity == .error ? "1;31" : "1;33")
    guard diagnostic.quotesSource else {
      return "\(source.path): \(label): \(diagnostic.message)\n"
        + (diagnostic.hint.map { "  = \($0)\n" } ?? "")
    }
    return render(
      label, diagnostic.message, at: diagnostic.span, hint: diagnostic.hint, in: source)
  }

  /// Renders a problem that is not one of the checker's diagnostics, such as `fmt` refusing its
  /// own output, the same way.
  func render(
    _ severity: Diagnostic.Severity, _ message: String, at span: SourceSpan, hint: String?,
    in source: SourceFile
  ) -> String {
    render(severity.rawValue, message, at: span, hint: hint, in: source)
  }

  private func render(
    _ label: String, _ message: String, at span: SourceSpan, hint: String?, in source: SourceFile
  ) -> String {
    let start = source.location(of: span.start)
    var lines = [
      "\(source.path):\(start.line):\(start.column): \(label): \(message)",
      excerpt(at: span, in: source),
    ]
    if let hint {
      lines.append("\(gutter(line: start.line)) \(styled("=", "1;36")) \(hint)")
    }
    return lines.joined(separator: "\n") + "\n"
  }

  /// The source line a span starts on, numbered, and a caret line under the span, without a
  /// trailing line break: for problems in other files a user writes, such as JSON.
  public func excerpt(at span: SourceSpan, in source: SourceFile) -> String {
    var start = source.location(of: span.start)
    var end = source.location(of: span.end)
    var lineText = DiagnosticFormatter.printable(source.lineText(start.line))
    // A line of a file that is one huge line (minified JSON) is shown around the span only.
    if lineText.count > Self.longestLineShown {
      let first = max(0, start.column - 1 - Self.longestLineShown / 3)
      let window = lineText.dropFirst(first).prefix(Self.longestLineShown)
      let cut = first > 0 ? "…" : ""
      let shift = first - cut.count
      if end.line == start.line {
        end = SourceLocation(
          line: end.line, column: min(end.column - shift, window.count + cut.count + 1))
      }
      start = SourceLocation(line: start.line, column: start.column - shift)
      lineText = cut + window + (first + window.count < lineText.count ? "…" : "")
    }
    let gutter = gutter(line: start.line)
    let number = String(repeating: " ", count: gutter.count - String(start.line).count)
    return "\(number)\(start.line) | \(lineText)\n"
      + "\(gutter) | \(underline(from: start, to: end, lineText: lineText))"
  }

  /// The most characters of a source line an excerpt shows.
  static let longestLineShown = 160

  /// `line` with control characters other than tabs, line and paragraph separators, and the
  /// invisible characters that change how text shows (a right-to-left override), shown as
  /// spaces: printed as they are, a carriage return would send the rest of the line over its
  /// start, an override would reorder it, and the caret would point at the wrong text.
  static func printable(_ line: String) -> String {
    guard line.unicodeScalars.contains(where: isUnprintable) else { return line }
    let scalars = Array(line.unicodeScalars)
    // A flag keeps its tag characters: it shows as one character, as its column counts it.
    let flags = InvisibleCharacter.flagTags(in: scalars)
    var shown = String.UnicodeScalarView()
    for (index, scalar) in scalars.enumerated() {
      shown.append(isUnprintable(scalar) && !flags.contains(index) ? " " : scalar)
    }
    return String(shown)
  }

  private static func isUnprintable(_ scalar: Unicode.Scalar) -> Bool {
    scalar != "\t"
      && (scalar.properties.generalCategory == .control || scalar == "\u{2028}"
        || scalar == "\u{2029}" || InvisibleCharacter.misleads(scalar))
  }

  /// As in the language contract: the line number right-aligned in five columns, or wider.
  private func gutter(line: Int) -> String {
    String(repeating: " ", count: max(5, String(line).count + 1))
  }

  /// The caret line. Columns count characters, but a terminal gives emoji and East Asian wide
  /// characters two cells, so the padding and the underline are measured in cells.
  private func underline(from start: SourceLocation, to end: SourceLocation, lineText: String)
    -> String
  {
    let lineLength = lineText.count
    let lastColumn = end.line == start.line ? end.column : lineLength + 1
    let before = lineText.prefix(start.column - 1)
    let under = lineText.dropFirst(start.column - 1).prefix(max(0, lastColumn - start.column))
    let indent = before.map {
      $0 == "\t" ? "\t" : String(repeating: " ", count: $0.terminalWidth)
    }.joined()
    let width = max(1, under.reduce(0) { $0 + $1.terminalWidth })
    return indent + styled("^" + String(repeating: "~", count: width - 1), "1;32")
  }
}
