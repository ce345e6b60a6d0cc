import Testing

@testable import ReckonPolicy

/// `PlainValueReader` reads values from their bytes on the hot paths; wherever it answers, it
/// gives what `ValueParser` gives, and it answers for the plain spellings facts files use.
struct PlainValueReaderTests {
  struct Written: CustomTestStringConvertible, Sendable {
    let text: String
    let type: ValueType
    var testDescription: String { "\(text) as \(type)" }

    init(_ text: String, _ type: ValueType) {
      self.text = text
      self.type = type
    }
  }

  static let delivery = ValueType.enumeration(
    EnumType(name: "DeliveryStatus", cases: ["DELIVERED", "UNDELIVERED_QUALITY_ISSUE"]))

  @Test(arguments: [
    Written("DELIVERED", delivery), Written("UNDELIVERED_QUALITY_ISSUE", delivery),
    Written("true", .boolean), Written("false", .boolean), Written("37.5%", .percent),
    Written("0%", .percent), Written("100%", .percent), Written("100.0%", .percent),
    Written("0.1%", .percent), Written("4.99 USD", .money), Written("-3 EUR", .money),
    Written("12 days", .duration), Written("1 second", .duration),
    Written("1.5 weeks", .duration), Written("90 minutes", .duration),
    Written("2026-11-01T10:00:00Z", .timestamp), Written("2026-11-01", .timestamp),
    Written("2026-11-01T09:30:00.125+02:00", .timestamp), Written("3", .number),
    Written("-2.5", .number), Written("-0", .number), Written("héllo 😀", .text), Written("", .text),
  ])
  func thePlainSpellingsAreReadAsTheLanguageReadsThem(_ written: Written) throws {
    let plain = try #require(PlainValueReader.read(written.text, as: written.type))
    #expect(plain == (try ValueParser.parse(written.text, as: written.type)))
  }

  @Test(arguments: [
    // Spaces around, which the language trims.
    Written(" 37.5%", .percent), Written("37.5%\t", .percent), Written(" DELIVERED", delivery),
    Written("true ", .boolean), Written(" 2026-11-01", .timestamp), Written("12 days ", .duration),
    Written("\u{A0}4.99 USD", .money),
    // Spellings the language reads another way, or refuses with a hint.
    Written("37.5 %", .percent), Written("1e1%", .percent), Written("-0%", .percent),
    Written("100.01%", .percent), Written(".5%", .percent), Written("5.%", .percent),
    Written("12  days", .duration), Written("-5 days", .duration), Written("3 months", .duration),
    Written("12 Days", .duration), Written("1e2 days", .duration), Written("12 days.", .duration),
    Written("4.99 usd", .money), Written("4.9999 USD", .money), Written("4. USD", .money),
    Written("2026-02-30", .timestamp), Written("2026-11-01T10:00:00", .timestamp),
    Written("10000-01-01", .timestamp), Written("0000-12-31T23:59:59Z", .timestamp),
    Written("delivered", delivery), Written("DELIVERE", delivery),
    Written("DELIVERED\u{301}", delivery),
    Written("yes", .boolean), Written("True", .boolean), Written("1e3", .number),
    Written("0x10", .number), Written("1234567890123456", .number), Written("+3", .number),
    Written("inf", .number), Written("nan", .number), Written("1_000", .number),
  ])
  func whereItAnswersItAgreesWithTheLanguage(_ written: Written) {
    guard let plain = PlainValueReader.read(written.text, as: written.type) else { return }
    #expect(plain == (try? ValueParser.parse(written.text, as: written.type)))
  }

  /// A case that is not ASCII may be the same text as ASCII bytes (`K` and the Kelvin sign):
  /// the plain reading leaves such a type to `ValueParser`.
  @Test func anEnumerationWithACaseThatIsNotASCIIIsLeftToTheLanguage() {
    let type = ValueType.enumeration(EnumType(name: "Unit", cases: ["\u{212A}", "K"]))
    #expect(PlainValueReader.read("K", as: type) == nil)
    #expect((try? ValueParser.parse("K", as: type)) == .enumeration(0))
  }

  @Test func decimalsAreTheDoublesTheStandardLibraryReads() {
    var random = SplitMix(state: 42)
    var texts = (0...2_000).map { String($0) }
    for digits in 1...15 {
      for _ in 0..<400 {
        var text = String(random.next() % 10)
        for _ in 1..<digits { text += String(random.next() % 10) }
        let point = Int(random.next() % UInt64(digits))
        if point > 0 { text.insert(".", at: text.index(text.startIndex, offsetBy: point)) }
        texts.append(text)
        texts.append("-" + text)
      }
    }
    for text in texts {
      guard case .number(let plain)? = PlainValueReader.read(text, as: .number) else {
        Issue.record("\(text) was not read")
        continue
      }
      #expect(plain.bitPattern == Double(text)?.bitPattern, "\(text)")
    }
  }

  /// A reproducible stream of numbers for the decimals above.
  struct SplitMix {
    var state: UInt64

    mutating func next() -> UInt64 {
      state &+= 0x9E37_79B9_7F4A_7C15
      var mixed = state
      mixed = (mixed ^ mixed >> 30) &* 0xBF58_476D_1CE4_E5B9
      mixed = (mixed ^ mixed >> 27) &* 0x94D0_49BB_1331_11EB
      return mixed ^ mixed >> 31
    }
  }
}
