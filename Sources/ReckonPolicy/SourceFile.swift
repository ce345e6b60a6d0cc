/// A policy or tests file's text with what diagnostics need to point into it.
public struct SourceFile: Sendable {
  /// The path shown in diagnostics, as the author typed it.
  public let path: String
  /// The whole text.
  public let text: String
  /// The text as UTF-8 bytes, which spans index into.
  public let bytes: [UInt8]
  private let lineStarts: [Int]

  /// Creates a source file from its path and text.
  public init(path: String, text: String) {
    self.init(path: path, text: text, bytes: Array(text.utf8))
  }

  /// Creates a source file from the bytes read from disk, kept as they are even when they are not
  /// UTF-8, so the lexer can point at the first bad byte instead of the file being refused unseen.
  public init(path: String, contents: [UInt8]) {
    self.init(path: path, text: String(decoding: contents, as: UTF8.self), bytes: contents)
  }

  private init(path: String, text: String, bytes: [UInt8]) {
    self.path = path
    self.text = text
    self.bytes = bytes
    // A byte order mark is not part of the first line: its columns count from after it.
    var starts = [bytes.starts(with: Lexer.byteOrderMark) ? Lexer.byteOrderMark.count : 0]
    for (offset, byte) in bytes.enumerated() where byte == UInt8(ascii: "\n") {
      starts.append(offset + 1)
    }
    self.lineStarts = starts
  }

  /// The 1-based line and column (in characters) of a byte offset.
  public func location(of offset: Int) -> SourceLocation {
    let (line, before) = lineAndTextBefore(offset)
    return SourceLocation(line: line, column: before.count + 1)
  }

  /// The 1-based line and column of a byte offset with the column in UTF-16 code units, as
  /// SARIF counts by default and most editors do (a character may be several).
  public func utf16Location(of offset: Int) -> SourceLocation {
    let (line, before) = lineAndTextBefore(offset)
    return SourceLocation(line: line, column: before.utf16.count + 1)
  }

  /// The 1-based line of a byte offset, and its line's text up to the offset.
  private func lineAndTextBefore(_ offset: Int) -> (line: Int, text: String) {
    let clamped = max(0, min(offset, bytes.count))
    var low = 0
    var high = lineStarts.count - 1
    while low < high {
      let middle = (low + high + 1) / 2
      if lineStarts[middle] <= clamped { low = middle } else { high = middle - 1 }
    }
    let lineStart = lineStarts[low]
    return (low + 1, String(decoding: bytes[lineStart..<max(lineStart, clamped)], as: UTF8.self))
  }

  /// The offset of the first byte that is not part of valid UTF-8, or nil if the whole file is.
  public var firstInvalidUTF8Offset: Int? {
    var parser = Unicode.UTF8.ForwardParser()
    var iterator = bytes.makeIterator()
    var offset = 0
    while true {
      switch parser.parseScalar(from: &iterator) {
      case .valid(let encoded): offset += encoded.count
      case .error: return offset
      case .emptyInput: return nil
      }
    }
  }

  /// The text of a 1-based line, without its line break.
  public func lineText(_ line: Int) -> String {
    guard line >= 1, line <= lineStarts.count else { return "" }
    let start = lineStarts[line - 1]
    var end = line < lineStarts.count ? lineStarts[line] - 1 : bytes.count
    if end > start, bytes[end - 1] == UInt8(ascii: "\r") { end -= 1 }
    return String(decoding: bytes[start..<max(start, end)], as: UTF8.self)
  }

  /// The source text a span covers.
  public func text(of span: SourceSpan) -> String {
    let start = max(0, min(span.start, bytes.count))
    let end = max(start, min(span.end, bytes.count))
    return String(decoding: bytes[start..<end], as: UTF8.self)
  }
}

/// A 1-based line and column.
public struct SourceLocation: Hashable, Sendable, CustomStringConvertible {
  /// The line, counting from 1.
  public let line: Int
  /// The column in characters, counting from 1.
  public let column: Int

  /// `line:column`.
  public var description: String { "\(line):\(column)" }
}

/// A half-open range of UTF-8 byte offsets into a source file.
public struct SourceSpan: Hashable, Sendable {
  /// The offset of the first byte.
  public let start: Int
  /// The offset just past the last byte.
  public let end: Int

  /// Creates a span from its bounds.
  public init(start: Int, end: Int) {
    self.start = start
    self.end = max(start, end)
  }

  /// The smallest span covering both.
  public func merged(with other: SourceSpan) -> SourceSpan {
    SourceSpan(start: min(start, other.start), end: max(end, other.end))
  }
}

extension SourceFile {
  /// The offset of the first token at or after `offset`, skipping blanks, line breaks and
  /// comments; `bytes.count` when there is none.
  func tokenStart(after offset: Int) -> Int {
    var position = offset
    while position < bytes.count {
      switch bytes[position] {
      case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"), UInt8(ascii: "\n"):
        position += 1
      case UInt8(ascii: "#"):
        while position < bytes.count, bytes[position] != UInt8(ascii: "\n") { position += 1 }
      default:
        return position
      }
    }
    return position
  }
}
