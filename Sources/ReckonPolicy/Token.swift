/// One lexical token of a policy or tests file.
public struct Token: Hashable, Sendable {
  /// What sort of token it is.
  public enum Kind: Hashable, Sendable {
    /// A name: `rule`, `usage.consumed`, `DELIVERED`; keywords are identifiers the parser knows.
    case identifier
    case number
    /// A date or a UTC time: `2026-11-01`, `2026-11-01T10:00:00Z`; `text` is as written.
    case timestamp
    /// A double-quoted string; `text` holds its decoded value.
    case string
    case percentSign
    case comma
    case leftParen
    case rightParen
    case leftBracket
    case rightBracket
    case colon
    case assign
    case equal
    case notEqual
    case less
    case lessOrEqual
    case greater
    case greaterOrEqual
    case plus
    case minus
    case star
    case slash
    case endOfFile
  }

  /// What sort of token it is.
  public let kind: Kind
  /// The source text, or for a string the decoded value.
  public let text: String
  /// Where it stands.
  public let span: SourceSpan
  /// Whether a line break (or the start of the file) comes before it.
  public let startsLine: Bool
}

/// A comment, kept so the formatter can put it back.
public struct Comment: Hashable, Sendable {
  /// The text after `#`.
  public let text: String
  /// Where it stands.
  public let span: SourceSpan
  /// Whether it stands alone on its line rather than after code.
  public let ownLine: Bool
}
