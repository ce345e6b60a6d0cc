import ReckonSupport

/// Splits source text into tokens, reporting bad characters and carrying on.
public struct Lexer {
  private let bytes: [UInt8]
  private var offset = 0
  private var atLineStart = true
  /// Where the last token ended: the end of the file is reported there, on a line the author can
  /// see, rather than past a final line break on a line that does not exist.
  private var lastTokenEnd = 0
  /// The text of the token just returned when it was a number: a currency symbol after it
  /// (`10 €`) is money written the way some write it.
  private var lastNumber: String?
  private(set) var diagnostics: [Diagnostic] = []
  private(set) var comments: [Comment] = []
  /// A token already lexed, returned by the next call: the currency code `$5` stands in for.
  private var pending: Token?
  /// Whether a line break Reckon does not read was reported: one report says what to fix.
  private var reportedLineBreak = false

  /// Creates a lexer over a source file.
  public init(_ source: SourceFile) {
    self.bytes = source.bytes
    // A byte order mark is how some editors say "UTF-8"; it is not part of the policy.
    if bytes.starts(with: Lexer.byteOrderMark) { offset = Lexer.byteOrderMark.count }
    lastTokenEnd = offset
    if let invalid = source.firstInvalidUTF8Offset {
      diagnostics.append(Lexer.notUTF8(at: invalid, byte: bytes[invalid]))
    }
  }

  /// A character some editors show as a line break where Reckon reads none: its offset, length
  /// and name.
  typealias UnsupportedLineBreak = (offset: Int, length: Int, name: String)

  /// The line break other than `\n` or `\r\n` at `offset`, if there is one there. Editors and
  /// viewers break the line at it, Reckon does not: a rule after one inside a comment would be
  /// shown but never run. (Outside comments all but the lone CR are unexpected characters.)
  static func unsupportedLineBreak(at offset: Int, in bytes: [UInt8]) -> UnsupportedLineBreak? {
    switch bytes[offset] {
    case 0x0D where offset + 1 >= bytes.count || bytes[offset + 1] != 0x0A:
      return (offset, 1, "a carriage return (CR) without a line feed")
    case 0x0B: return (offset, 1, "a vertical tab (VT)")
    case 0x0C: return (offset, 1, "a form feed (FF)")
    case 0xC2 where offset + 1 < bytes.count && bytes[offset + 1] == 0x85:
      return (offset, 2, "U+0085 NEXT LINE")
    case 0xE2
    where offset + 2 < bytes.count && bytes[offset + 1] == 0x80
      && (bytes[offset + 2] == 0xA8 || bytes[offset + 2] == 0xA9):
      return (
        offset, 3,
        bytes[offset + 2] == 0xA8 ? "U+2028 LINE SEPARATOR" : "U+2029 PARAGRAPH SEPARATOR"
      )
    default: return nil
    }
  }

  /// Reports the line break at `offset`, if it is one Reckon does not read, once per file.
  private mutating func checkLineBreak(at offset: Int) {
    guard !reportedLineBreak, let lineBreak = Lexer.unsupportedLineBreak(at: offset, in: bytes)
    else { return }
    reportedLineBreak = true
    diagnostics.append(Lexer.unsupportedLineBreak(lineBreak))
  }

  /// One report for the whole file: the others have the same cause and the same fix.
  static func unsupportedLineBreak(_ lineBreak: UnsupportedLineBreak) -> Diagnostic {
    Diagnostic(
      .unsupportedLineBreak, .error,
      "\(lineBreak.name) here: some editors break the line at it, Reckon does not",
      at: SourceSpan(start: lineBreak.offset, end: lineBreak.offset + lineBreak.length),
      hint:
        "end lines with a line feed (LF) or CR LF; most editors offer it under 'Line Endings'")
  }

  static let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]

  /// One report for the whole file: every later bad byte has the same cause and the same fix.
  static func notUTF8(at offset: Int, byte: UInt8) -> Diagnostic {
    let hex = String(byte, radix: 16, uppercase: true)
    return Diagnostic(
      .invalidEncoding, .error,
      "the file is not UTF-8: byte 0x\(hex.count == 1 ? "0" + hex : hex) here",
      at: SourceSpan(start: offset, end: offset + 1),
      hint: "save the file as UTF-8 (most editors offer it under 'Save with Encoding')")
  }

  /// Lexes the whole file; the last token is always `endOfFile`.
  public static func tokenize(_ source: SourceFile) -> (
    tokens: [Token], comments: [Comment], diagnostics: [Diagnostic]
  ) {
    var lexer = Lexer(source)
    var tokens: [Token] = []
    while true {
      let token = lexer.next()
      tokens.append(token)
      if token.kind == .endOfFile { break }
    }
    return (tokens, lexer.comments, lexer.diagnostics)
  }

  /// The next token; characters the language does not use are reported and skipped.
  public mutating func next() -> Token {
    if let pending {
      self.pending = nil
      return pending
    }
    while true {
      skipTrivia()
      let start = offset
      guard offset < bytes.count else {
        return Token(
          kind: .endOfFile, text: "", span: SourceSpan(start: lastTokenEnd, end: lastTokenEnd),
          startsLine: true)
      }
      let startsLine = atLineStart
      if let token = token(from: start, startsLine: startsLine) {
        atLineStart = false
        lastTokenEnd = token.span.end
        lastNumber = token.kind == .number && !token.text.isEmpty ? token.text : nil
        return token
      }
      if let code = currencySymbolAfterAmount(from: start) {
        atLineStart = false
        lastTokenEnd = offset
        lastNumber = nil
        return code
      }
      lastNumber = nil
      if let amount = currencySymbolAmount(from: start, startsLine: startsLine) {
        atLineStart = false
        lastTokenEnd = offset
        return amount
      }
      if let standIn = reportUnexpectedCharacter(from: start) {
        // A look-alike such as ≥ stands in for the operator it resembles, so the one mistake
        // does not also break the parse of the rest of the condition.
        atLineStart = false
        lastTokenEnd = offset
        return Token(
          kind: standIn, text: slice(start, offset), span: SourceSpan(start: start, end: offset),
          startsLine: startsLine)
      }
    }
  }

  private mutating func token(from start: Int, startsLine: Bool) -> Token? {
    let byte = bytes[offset]
    if Lexer.isIdentifierStart(byte) || nonASCIILetterLength(at: offset) != nil {
      return identifier(from: start, startsLine: startsLine)
    }
    if Lexer.isDigit(byte) { return number(from: start, startsLine: startsLine) }
    if byte == UInt8(ascii: "\"") { return string(from: start, startsLine: startsLine) }
    if let quoted = quotedStringInOtherQuotes(from: start, startsLine: startsLine) {
      return quoted
    }
    if let standIn = otherLanguagesOperator(from: start, startsLine: startsLine) {
      return standIn
    }
    guard let kind = punctuation() else { return nil }
    return Token(
      kind: kind, text: slice(start, offset), span: SourceSpan(start: start, end: offset),
      startsLine: startsLine)
  }

  private mutating func skipTrivia() {
    while offset < bytes.count {
      switch bytes[offset] {
      case UInt8(ascii: "\n"):
        atLineStart = true
        offset += 1
      case UInt8(ascii: " "), UInt8(ascii: "\t"):
        offset += 1
      case UInt8(ascii: "\r"):
        checkLineBreak(at: offset)
        offset += 1
      case UInt8(ascii: "#"):
        let start = offset
        while offset < bytes.count, bytes[offset] != UInt8(ascii: "\n") {
          checkLineBreak(at: offset)
          offset += 1
        }
        comments.append(
          Comment(
            text: slice(start + 1, offset), span: SourceSpan(start: start, end: offset),
            ownLine: atLineStart))
      default:
        return
      }
    }
  }

  private mutating func identifier(from start: Int, startsLine: Bool) -> Token {
    var hasNonASCII = false
    while offset < bytes.count {
      if Lexer.isIdentifierPart(bytes[offset]) {
        offset += 1
      } else if let length = nonASCIILetterLength(at: offset) {
        // Read as part of the name, so 'größe' is one mistake with one message, not three.
        hasNonASCII = true
        offset += length
      } else if bytes[offset] == UInt8(ascii: "."), offset + 1 < bytes.count,
        Lexer.isIdentifierPart(bytes[offset + 1]) || nonASCIILetterLength(at: offset + 1) != nil
      {
        offset += 1  // a dotted name such as usage.consumed is one token
      } else {
        break
      }
    }
    let text = slice(start, offset)
    if hasNonASCII {
      diagnostics.append(
        Diagnostic(
          .invalidNameCharacter, .error,
          "'\(text)' is not a name the language can read: names use a–z, A–Z, 0–9 and _",
          at: SourceSpan(start: start, end: offset),
          hint: "write the name with those letters only, e.g. without accents"))
    }
    return Token(
      kind: .identifier, text: text, span: SourceSpan(start: start, end: offset),
      startsLine: startsLine)
  }

  /// The UTF-8 length of the scalar whose lead byte is at `index`, within the file; 1 for a
  /// byte that does not start a valid scalar (reported once as not UTF-8), so a bad byte never
  /// swallows the text after it.
  static func scalarLength(at index: Int, in bytes: [UInt8]) -> Int {
    let lead = bytes[index]
    let length = min(
      lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 1, bytes.count - index)
    guard length > 1 else { return 1 }
    return String(validating: bytes[index..<index + length], as: UTF8.self) == nil ? 1 : length
  }

  /// The UTF-8 length of the letter at `index` when it is a letter outside ASCII (ö, ß, é), which a
  /// name may not use; nil otherwise.
  private func nonASCIILetterLength(at index: Int) -> Int? {
    guard bytes[index] >= 0xC0 else { return nil }
    let length = Lexer.scalarLength(at: index, in: bytes)
    guard length > 1,
      let scalar = String(validating: bytes[index..<index + length], as: UTF8.self)?
        .unicodeScalars.first
    else { return nil }
    switch scalar.properties.generalCategory {
    case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
      .nonspacingMark, .spacingMark:
      return length
    default:
      return nil
    }
  }

  /// The symbols that stand for a currency, with the code a policy writes (the likeliest, for
  /// a symbol several currencies share) and the others it may mean.
  private static let currencySymbols: [(symbol: String, code: String, others: String)] = [
    ("$", "USD", " (or CAD, AUD … for another dollar)"), ("€", "EUR", ""), ("£", "GBP", ""),
    ("¥", "JPY", " (or CNY for yuan)"),
  ]

  /// The currency symbol that starts at `start`, if one does.
  private func currencySymbol(at start: Int) -> (symbol: String, code: String, others: String)? {
    Lexer.currencySymbols.first { bytes[start...].starts(with: Array($0.symbol.utf8)) }
  }

  /// `10 €` or `10€`, as some write money: one error saying how the language writes it, then the
  /// code the symbol stands for, so the rest of the condition checks as money.
  private mutating func currencySymbolAfterAmount(from start: Int) -> Token? {
    guard let amount = lastNumber,
      let (symbol, code, others) = currencySymbol(at: start)
    else { return nil }
    offset = start + symbol.utf8.count
    diagnostics.append(
      Diagnostic(
        .moneySymbol, .error, "money is written as an amount and a currency code",
        at: SourceSpan(start: start, end: offset), hint: "write \(amount) \(code)\(others)"))
    return Token(
      kind: .identifier, text: code, span: SourceSpan(start: start, end: offset),
      startsLine: false)
  }

  /// `$5` or `€4.99`: one error saying how the language writes money, then the amount and the
  /// currency code it stands for, so the rest of the condition checks as money.
  private mutating func currencySymbolAmount(from start: Int, startsLine: Bool) -> Token? {
    // `$` and `¥` stand for more than one currency: the hint names the likeliest and the others.
    guard
      let (symbol, code, others) = currencySymbol(at: start),
      start + symbol.utf8.count < bytes.count, Lexer.isDigit(bytes[start + symbol.utf8.count])
    else { return nil }
    offset = start + symbol.utf8.count
    let amount = number(from: offset, startsLine: false)
    guard !amount.text.isEmpty else { return amount }
    diagnostics.append(
      Diagnostic(
        .moneySymbol, .error, "money is written as an amount and a currency code",
        at: SourceSpan(start: start, end: offset),
        hint: "write \(slice(start + symbol.utf8.count, offset)) \(code)\(others)"))
    pending = Token(
      kind: .identifier, text: code, span: SourceSpan(start: offset, end: offset),
      startsLine: false)
    return Token(
      kind: .number, text: amount.text, span: SourceSpan(start: start, end: offset),
      startsLine: startsLine)
  }

  private mutating func number(from start: Int, startsLine: Bool) -> Token {
    while offset < bytes.count, Lexer.isDigit(bytes[offset]) || bytes[offset] == UInt8(ascii: "_") {
      offset += 1
    }
    if offset - start == 4, let end = Lexer.dateEnd(after: offset, in: bytes) {
      offset = end
      return Token(
        kind: .timestamp, text: slice(start, offset), span: SourceSpan(start: start, end: offset),
        startsLine: startsLine)
    }
    // An underscore goes between digits: `1_000_`, `1__0` and `1_.5` are slips.
    let written = slice(start, offset)
    if written.hasSuffix("_") || written.contains("__") || misplacedUnderscore(around: offset) {
      var end = offset
      while end < bytes.count,
        Lexer.isDigit(bytes[end]) || bytes[end] == UInt8(ascii: "_")
          || bytes[end] == UInt8(ascii: ".")
      {
        end += 1
      }
      offset = end
      return invalidNumber(
        from: start, startsLine: startsLine,
        hint: "an underscore goes between two digits, as in 1_000")
    }
    if offset + 1 < bytes.count, bytes[offset] == UInt8(ascii: "."),
      Lexer.isDigit(bytes[offset + 1])
    {
      offset += 1
      while offset < bytes.count, Lexer.isDigit(bytes[offset]) || bytes[offset] == UInt8(ascii: "_")
      { offset += 1 }
    }
    if offset < bytes.count,
      Lexer.isIdentifierStart(bytes[offset]) || bytes[offset] == UInt8(ascii: ".")
    {
      // 12abc or 1.2.3: swallow the rest so one mistake gives one message.
      while offset < bytes.count,
        Lexer.isIdentifierPart(bytes[offset]) || bytes[offset] == UInt8(ascii: ".")
      {
        offset += 1
      }
      return invalidNumber(
        from: start, startsLine: startsLine,
        hint: "a number is written like 3, 2.5 or 40%; put a space before a unit, as in 90 days")
    }
    return Token(
      kind: .number, text: String(slice(start, offset).filter { $0 != "_" }),
      span: SourceSpan(start: start, end: offset), startsLine: startsLine)
  }

  /// Reports the text from `start` to here as not a number, once.
  private mutating func invalidNumber(from start: Int, startsLine: Bool, hint: String) -> Token {
    let span = SourceSpan(start: start, end: offset)
    diagnostics.append(
      Diagnostic(
        .invalidNumber, .error, "'\(slice(start, offset))' is not a number", at: span, hint: hint))
    // Empty text marks the number as already reported, so later stages do not report it again.
    return Token(kind: .number, text: "", span: span, startsLine: startsLine)
  }

  /// Whether the number's fraction, after `offset`, starts or ends with an underscore, or
  /// has two in a row: `1._5`, `1.5_`.
  private func misplacedUnderscore(around offset: Int) -> Bool {
    guard offset + 1 < bytes.count, bytes[offset] == UInt8(ascii: ".") else { return false }
    var end = offset + 1
    while end < bytes.count, Lexer.isDigit(bytes[end]) || bytes[end] == UInt8(ascii: "_") {
      end += 1
    }
    let fraction = slice(offset + 1, end)
    return fraction.hasPrefix("_") || fraction.hasSuffix("_") || fraction.contains("__")
  }

  private mutating func string(from start: Int, startsLine: Bool) -> Token {
    offset += 1
    var value: [UInt8] = []
    while offset < bytes.count, bytes[offset] != UInt8(ascii: "\""),
      bytes[offset] != UInt8(ascii: "\n")
    {
      // An editor breaks the line here, and the text would not be what it shows.
      checkLineBreak(at: offset)
      if bytes[offset] == UInt8(ascii: "\\"), offset + 1 < bytes.count,
        bytes[offset + 1] != UInt8(ascii: "\n")
      {
        offset += 1
        switch bytes[offset] {
        case UInt8(ascii: "n"): value.append(UInt8(ascii: "\n"))
        case UInt8(ascii: "t"): value.append(UInt8(ascii: "\t"))
        case UInt8(ascii: "\""), UInt8(ascii: "\\"): value.append(bytes[offset])
        default:
          // Dropping the backslash would change the text without a word ("\u00e9" read as
          // "u00e9"); kept as written, and reported.
          let length = Lexer.scalarLength(at: offset, in: bytes)
          let escape = slice(offset - 1, offset + length)
          // A byte that is not UTF-8 was reported once for the whole file.
          if length > 1 || bytes[offset] < 0x80 {
            diagnostics.append(
              Diagnostic(
                .unknownEscape, .error, "'\(escape)' is no escape Reckon knows",
                at: SourceSpan(start: offset - 1, end: offset + length),
                hint:
                  "text knows \\\" (a quote), \\\\ (a backslash), \\n and \\t; write any other character as itself"
              ))
          }
          value.append(UInt8(ascii: "\\"))
          value.append(contentsOf: bytes[offset..<(offset + length)])
          offset += length - 1
        }
      } else if let length = Lexer.controlCharacterLength(at: offset, in: bytes) {
        reportControlCharacter(at: offset, length: length)
        value.append(contentsOf: bytes[offset..<(offset + length)])
        offset += length - 1
      } else {
        value.append(bytes[offset])
      }
      offset += 1
    }
    if offset < bytes.count, bytes[offset] == UInt8(ascii: "\"") {
      offset += 1
    } else {
      diagnostics.append(
        Diagnostic(
          .unterminatedString, .error, "this text has no closing quote",
          at: SourceSpan(start: start, end: offset),
          hint: "end the text with \" on the same line"))
    }
    return Token(
      kind: .string, text: String(decoding: value, as: UTF8.self),
      span: SourceSpan(start: start, end: offset), startsLine: startsLine)
  }

  /// The UTF-8 length of the control character at `offset` (C0 but a line break, DEL, or C1 but
  /// U+0085), which text may not hold: it is invisible, and a terminal showing a message or a
  /// decision with it would act on it; or of an `InvisibleCharacter` that changes how text shows
  /// (a bidirectional control, a zero-width space, a soft hyphen). Nil for any other character.
  /// The line breaks are reported as such.
  static func controlCharacterLength(at offset: Int, in bytes: [UInt8]) -> Int? {
    let byte = bytes[offset]
    switch byte {
    case 0x0A, 0x0B, 0x0C, 0x0D: return nil
    case 0x00..<0x20, 0x7F: return 1
    case 0xC2..<0xF5:
      let length = byte < 0xE0 ? 2 : byte < 0xF0 ? 3 : 4
      guard offset + length <= bytes.count,
        let scalar = String(validating: bytes[offset..<(offset + length)], as: UTF8.self)?
          .unicodeScalars.first
      else { return nil }
      let isC1 = (0x80...0x9F).contains(scalar.value) && scalar.value != 0x85
      // A tag character spells a flag (🏴, tags naming a region, a cancel tag); anywhere else
      // it is invisible text.
      if InvisibleCharacter.isTag(scalar), isFlagTag(at: offset, in: bytes) { return nil }
      return isC1 || InvisibleCharacter.misleads(scalar) ? length : nil
    default: return nil
    }
  }

  /// Whether the tag character at `offset` belongs to a well-formed flag. Every scalar of a
  /// flag takes four bytes, so the one `k` places away starts `4 * k` bytes away.
  private static func isFlagTag(at offset: Int, in bytes: [UInt8]) -> Bool {
    InvisibleCharacter.isFlagTag { places in
      let start = offset + 4 * places
      guard start >= 0, start + 4 <= bytes.count else { return nil }
      return String(validating: bytes[start..<(start + 4)], as: UTF8.self)?.unicodeScalars.first?
        .value
    }
  }

  private mutating func reportControlCharacter(at offset: Int, length: Int) {
    let span = SourceSpan(start: offset, end: offset + length)
    let isTab = bytes[offset] == UInt8(ascii: "\t")
    let character = StrayCharacter(
      character: String(decoding: bytes[span.start..<span.end], as: UTF8.self))
    diagnostics.append(
      Diagnostic(
        .characterInText, .error,
        isTab
          ? "a tab cannot be written inside text"
          : "\(character.described) cannot be written inside text",
        at: span,
        hint: isTab
          ? "write \\t for a tab, or a space"
          : "delete it: it is invisible in most editors, and changes how the text shows or what a terminal showing it does"
      ))
  }

  /// Text between typographic quotes (“heavy use”, as word processors and chat apps write it)
  /// or single ones: one error for the pair, and a text token so the rest of the line still
  /// parses. An opening quote without a closing one on its line is left to the stray-character
  /// report.
  private mutating func quotedStringInOtherQuotes(from start: Int, startsLine: Bool) -> Token? {
    guard let opening = Lexer.otherQuote(bytes, at: start) else { return nil }
    var end = start + opening.length
    while end < bytes.count, bytes[end] != UInt8(ascii: "\n") {
      let closing =
        bytes[end] == UInt8(ascii: "\"") && opening.isDouble
        ? (length: 1, isDouble: true) : Lexer.otherQuote(bytes, at: end)
      if let closing, closing.isDouble == opening.isDouble {
        let text = slice(start + opening.length, end)
        offset = end + closing.length
        diagnostics.append(
          Diagnostic(
            .curlyQuotes, .error, "text must be between straight double quotes",
            at: SourceSpan(start: start, end: offset), hint: "write \"\(text)\""))
        return Token(
          kind: .string, text: text, span: SourceSpan(start: start, end: offset),
          startsLine: startsLine)
      }
      end += 1
    }
    return nil
  }

  /// The quote at `index` other than the straight double quote: ' ‘ ’ (single) or “ ” „
  /// (double), with its UTF-8 length.
  private static func otherQuote(_ bytes: [UInt8], at index: Int) -> (
    length: Int, isDouble: Bool
  )? {
    if bytes[index] == UInt8(ascii: "'") { return (1, false) }
    guard index + 2 < bytes.count, bytes[index] == 0xE2, bytes[index + 1] == 0x80 else {
      return nil
    }
    switch bytes[index + 2] {
    case 0x98, 0x99: return (3, false)
    case 0x9C, 0x9D, 0x9E: return (3, true)
    default: return nil
    }
  }

  /// Operators other languages spell differently (`&&`, `||`, `<>`, `=>`, `=<`): one error
  /// saying how this language writes it, and that operator in its place, so the rest of the
  /// condition still parses (`&&` was two errors and a parse error after them).
  private mutating func otherLanguagesOperator(from start: Int, startsLine: Bool) -> Token? {
    guard start + 1 < bytes.count else { return nil }
    let pair = (bytes[start], bytes[start + 1])
    let meant: (kind: Token.Kind, text: String)
    switch pair {
    case (UInt8(ascii: "&"), UInt8(ascii: "&")): meant = (.identifier, "and")
    case (UInt8(ascii: "|"), UInt8(ascii: "|")): meant = (.identifier, "or")
    case (UInt8(ascii: "<"), UInt8(ascii: ">")): meant = (.notEqual, "!=")
    case (UInt8(ascii: "="), UInt8(ascii: ">")): meant = (.greaterOrEqual, ">=")
    case (UInt8(ascii: "="), UInt8(ascii: "<")): meant = (.lessOrEqual, "<=")
    default: return nil
    }
    offset = start + 2
    let written = slice(start, offset)
    diagnostics.append(
      Diagnostic(
        .otherLanguageOperator, .error, "'\(written)' is not an operator here",
        at: SourceSpan(start: start, end: offset), hint: "write '\(meant.text)'"))
    return Token(
      kind: meant.kind, text: meant.text, span: SourceSpan(start: start, end: offset),
      startsLine: startsLine)
  }

  private mutating func punctuation() -> Token.Kind? {
    let byte = bytes[offset]
    let following: UInt8? = offset + 1 < bytes.count ? bytes[offset + 1] : nil
    let twoCharacter: Token.Kind? =
      switch (byte, following) {
      case (UInt8(ascii: "="), UInt8(ascii: "=")): .equal
      case (UInt8(ascii: "!"), UInt8(ascii: "=")): .notEqual
      case (UInt8(ascii: "<"), UInt8(ascii: "=")): .lessOrEqual
      case (UInt8(ascii: ">"), UInt8(ascii: "=")): .greaterOrEqual
      default: nil
      }
    if let twoCharacter {
      offset += 2
      return twoCharacter
    }
    let single: Token.Kind? =
      switch byte {
      case UInt8(ascii: "%"): .percentSign
      case UInt8(ascii: ","): .comma
      case UInt8(ascii: "("): .leftParen
      case UInt8(ascii: ")"): .rightParen
      case UInt8(ascii: "["): .leftBracket
      case UInt8(ascii: "]"): .rightBracket
      case UInt8(ascii: ":"): .colon
      case UInt8(ascii: "="): .assign
      case UInt8(ascii: "<"): .less
      case UInt8(ascii: ">"): .greater
      case UInt8(ascii: "+"): .plus
      case UInt8(ascii: "-"): .minus
      case UInt8(ascii: "*"): .star
      case UInt8(ascii: "/"): .slash
      default: nil
      }
    if single != nil { offset += 1 }
    return single
  }

  /// Reports the character at `start` and returns the token a look-alike stands in for.
  private mutating func reportUnexpectedCharacter(from start: Int) -> Token.Kind? {
    // Step over one whole UTF-8 scalar so the message quotes a real character.
    offset += 1
    while offset < bytes.count, bytes[offset] & 0xC0 == 0x80 { offset += 1 }
    // Bytes that are not UTF-8 were reported once for the whole file when lexing began.
    guard String(validating: bytes[start..<offset], as: UTF8.self) != nil else { return nil }
    let stray = StrayCharacter(character: slice(start, offset))
    diagnostics.append(
      Diagnostic(
        .unexpectedCharacter, .error, "unexpected character \(stray.described)",
        at: SourceSpan(start: start, end: offset), hint: stray.hint))
    return stray.standIn
  }

  private func slice(_ start: Int, _ end: Int) -> String {
    String(decoding: bytes[start..<end], as: UTF8.self)
  }

  /// Where a date that began with a four-digit year ending at `offset` ends: `-MM-DD`, then
  /// optionally `T` and a time with its zone; nil when `-MM-DD` does not follow. What the time
  /// holds is the parser's to judge, so a slip in it is one error on the whole literal.
  static func dateEnd(after offset: Int, in bytes: [UInt8]) -> Int? {
    func byte(_ index: Int) -> UInt8? { index < bytes.count ? bytes[index] : nil }
    func isDigit(_ index: Int) -> Bool { byte(index).map(Lexer.isDigit) ?? false }
    let dash = UInt8(ascii: "-")
    guard byte(offset) == dash, isDigit(offset + 1), isDigit(offset + 2),
      byte(offset + 3) == dash, isDigit(offset + 4), isDigit(offset + 5)
    else { return nil }
    var end = offset + 6
    guard byte(end) == UInt8(ascii: "T"), isDigit(end + 1) else { return end }
    end += 1
    while let next = byte(end),
      Lexer.isDigit(next) || next == UInt8(ascii: ":") || next == UInt8(ascii: ".")
    {
      end += 1
    }
    if byte(end) == UInt8(ascii: "Z") {
      end += 1
    } else if byte(end) == UInt8(ascii: "+") || byte(end) == dash, isDigit(end + 1) {
      end += 1
      while let next = byte(end), Lexer.isDigit(next) || next == UInt8(ascii: ":") { end += 1 }
    }
    return end
  }

  static func isDigit(_ byte: UInt8) -> Bool {
    byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
  }

  static func isIdentifierStart(_ byte: UInt8) -> Bool {
    (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
      || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
      || byte == UInt8(ascii: "_")
  }

  static func isIdentifierPart(_ byte: UInt8) -> Bool { isIdentifierStart(byte) || isDigit(byte) }
}
