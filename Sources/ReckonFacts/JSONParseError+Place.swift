import Foundation
import ReckonPolicy
import ReckonSupport

extension JSONParseError {
  /// The longest line shown under an error; a longer one (minified JSON) is left out, as it
  /// would fill the terminal without showing where the problem is.
  static let longestExcerptLine = 200

  /// Where the problem is in `data`, the file at `path`: `path:line:column`, as policy errors
  /// name a place, rather than a byte offset nobody can go to.
  public func place(in data: Data, path: String) -> String {
    let location = SourceFile(path: path, contents: Array(data)).location(of: offset)
    return "\(path):\(location.line):\(location.column)"
  }

  /// The problem's line, numbered, and a caret under the place, as policy errors show them; nil
  /// when the line is too long to be read.
  public func excerpt(in data: Data) -> String? {
    let source = SourceFile(path: "", contents: Array(data))
    let line = source.location(of: offset).line
    guard source.lineText(line).count <= Self.longestExcerptLine else { return nil }
    return DiagnosticFormatter().excerpt(at: SourceSpan(start: offset, end: offset + 1), in: source)
  }

  /// How a file that is not JSON is reported, as `reckon.json`, facts files and request files
  /// all say it: `PATH:LINE:COLUMN: is not valid JSON: REASON`, then the excerpt, if any.
  public static func sentence(place: String, reason: String, excerpt: String?) -> String {
    "\(place): is not valid JSON: \(reason)" + (excerpt.map { "\n" + $0 } ?? "")
  }
}
