import Testing

@testable import ReckonEngine
@testable import ReckonTools

/// The scanner reads a string eight bytes at a time; whatever the length and wherever a quote,
/// an escape, a control character or a byte beyond ASCII falls, it reads as a plain byte-by-byte
/// reader would.
struct JSONLineScannerTests {
  /// What the scanner must give for `line` (which starts at the opening quote): the bytes up to
  /// the first quote after it, nil when there is none, or when a backslash or a control
  /// character comes first, or the bytes are not UTF-8.
  private static func expected(_ line: [UInt8]) -> [UInt8]? {
    guard let end = line.dropFirst().firstIndex(of: UInt8(ascii: "\"")) else { return nil }
    let text = Array(line[1..<end])
    guard !text.contains(where: { $0 == UInt8(ascii: "\\") || $0 < 0x20 }),
      String(validating: text, as: UTF8.self) != nil
    else { return nil }
    return text
  }

  private static func read(_ line: [UInt8]) -> [UInt8]? {
    line.withUnsafeBufferPointer { bytes in
      var scanner = JSONLineScanner(bytes)
      return scanner.rawString().map(Array.init)
    }
  }

  @Test(arguments: [
    UInt8(ascii: "\""), UInt8(ascii: "\\"), 0x00, 0x1F, 0x7F, 0x80, 0xC3, 0xFF, UInt8(ascii: "a"),
  ])
  func aStringReadsAsByteByByteWhereverAByteFalls(_ special: UInt8) {
    for length in 0...33 {
      let plain = (0..<length).map { UInt8(ascii: "a") + UInt8($0 % 26) }
      // The string as written, and then with `special` at each place in it.
      var lines = [[UInt8(ascii: "\"")] + plain + [UInt8(ascii: "\""), UInt8(ascii: ",")]]
      for place in 0..<length {
        var changed = plain
        changed[place] = special
        lines.append([UInt8(ascii: "\"")] + changed + [UInt8(ascii: "\""), UInt8(ascii: "}")])
        // Cut off after the string, so a word read past its end would leave the line.
        lines.append([UInt8(ascii: "\"")] + changed + [UInt8(ascii: "\"")])
        // No closing quote at all.
        lines.append([UInt8(ascii: "\"")] + changed)
      }
      for line in lines {
        #expect(Self.read(line) == Self.expected(line), "\(line)")
      }
    }
  }

  @Test func aTwoByteCharacterSplitAcrossWordsIsRead() {
    let text = Array("1234567é89".utf8)
    #expect(Self.read([UInt8(ascii: "\"")] + text + [UInt8(ascii: "\"")]) == text)
  }
}
