/// Text a sender wrote, cut short for quoting in a log line or an answer.
public enum QuotedText {
  /// `text` whole when it has at most `limit` Unicode scalars, else its first `limit` and how
  /// long it was. Counted in scalars, not characters: one character can carry any number of
  /// combining marks, so a cut by characters let an 80 KB `alg` through whole.
  public static func cut(_ text: String, to limit: Int) -> String {
    let scalars = text.unicodeScalars
    guard scalars.count > limit else { return text }
    var cut = String.UnicodeScalarView()
    cut.append(contentsOf: scalars.prefix(limit))
    return String(cut) + "… (\(text.utf8.count) bytes)"
  }
}
