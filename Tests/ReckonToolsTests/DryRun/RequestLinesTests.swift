import Foundation
import ReckonTestSupport
import Testing

@testable import ReckonEngine
@testable import ReckonTools

/// A requests file is indexed in parts side by side when it is large; the index must be the one
/// a plain scan from the first byte gives.
struct RequestLinesTests {
  @Test func aLargeFileIndexedInPartsMatchesAPlainScan() throws {
    var text = ""
    var expected: [(start: Int, length: Int, number: Int32)] = []
    var offset = 0
    let padding = String(repeating: "x", count: 700)
    for number in 1...24_000 {
      // Blank and white-space-only lines hold no request but still count for line numbers.
      let line =
        number % 997 == 0
        ? ""
        : number % 991 == 0
          ? " \t "
          : #"{"transactionId":"\#(2_000_000_000_000_000 + number)","pad":"\#(padding)"}"#
      if !line.isEmpty, line.trimmingCharacters(in: .whitespaces) != "" {
        expected.append((offset, line.utf8.count, Int32(number)))
      }
      let last = number == 24_000
      text += last ? line : line + "\n"
      offset += line.utf8.count + 1
    }
    let folder = TestScratch.folder.appendingPathComponent(
      "reckon-lines-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = folder.appendingPathComponent("large.jsonl").path
    try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    #expect(text.utf8.count > 1 << 24)

    let lines = try RequestLines(path: path)
    #expect(lines.count == expected.count)
    #expect(lines.starts == expected.map(\.start))
    #expect(lines.lengths == expected.map { Int32($0.length) })
    #expect(lines.numbers == expected.map(\.number))
    let ids = (0..<lines.count).map { String(decoding: lines.quickKey($0), as: UTF8.self) }
    #expect(ids.allSatisfy { $0.count == 16 && $0.hasPrefix("2") })
    #expect(ids == ids.sorted())
    #expect(lines.orderedByTransaction() == Array(0..<lines.count))
  }

  /// Keys hold an id's first 16 bytes; longer ids that share them are still put side by side.
  @Test func longIdsThatShareTheirFirstBytesAreOrderedInFull() throws {
    let ids = ["10000000000000001", "10000000000000002", "10000000000000001"]
    let path = TestScratch.folder.appendingPathComponent("long-ids-\(UUID().uuidString).jsonl")
      .path
    try Data(ids.map { #"{"transactionId":"\#($0)"}"# }.joined(separator: "\n").utf8).write(
      to: URL(fileURLWithPath: path))
    let lines = try RequestLines(path: path)
    #expect(lines.orderedByTransaction() == [0, 2, 1])
  }

  @Test(arguments: [1, 2, 3, 7, 64])
  func anyNumberOfPartsGivesTheIndexOfOnePart(_ parts: Int) throws {
    // Short lines, blank ones, a long one and no final newline; 64 parts outnumber the lines.
    let lines = [
      #"{"transactionId":"2000000000000003"}"#, "", "  ",
      #"{"transactionId":"2000000000000001","pad":"\#(String(repeating: "y", count: 300))"}"#,
      #"{"transactionId":"2000000000000002"}"#, "", #"{"no":"id"}"#,
    ]
    let folder = TestScratch.folder.appendingPathComponent(
      "reckon-lines-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = folder.appendingPathComponent("small.jsonl").path
    try Data(lines.joined(separator: "\n").utf8).write(to: URL(fileURLWithPath: path))
    let one = try RequestLines(path: path, parts: 1)
    let split = try RequestLines(path: path, parts: parts)
    #expect(one.numbers == [1, 4, 5, 7])
    #expect(split.starts == one.starts)
    #expect(split.lengths == one.lengths)
    #expect(split.numbers == one.numbers)
    #expect(split.orderedByTransaction() == [1, 2, 0, 3])
  }

  /// The quick key is the text after the first `"transactionId":"`, up to the next quote; a
  /// quoted key inside a string value is escaped, so it never matches.
  @Test(
    arguments: [
      (#"{"transactionId":"2000000000000001","x":1}"#, "2000000000000001"),
      (#"{"a":"\"transactionId\":\"9\"","transactionId":"42"}"#, "42"),
      (#"{"originalTransactionId":"7","transactionId":"8"}"#, "8"),
      (#"{"data":{"transactionId":"1","transactionId":"2"}}"#, "1"),
      (#"{"transactionId":""}"#, ""),
      (#"{"transactionId":"unterminated"#, "unterminated"),
      (#"{"transactionId":""#, ""),
      (#"{"transactionId":1}"#, nil),
      (#""transactionId":""#, nil),
      ("", nil),
    ] as [(String, String?)])
  func theQuickKeyIsTheFirstTransactionIdsText(_ line: String, _ key: String?) {
    var line = line
    let found = line.withUTF8 { bytes in
      RequestLines.findTransactionId(bytes).map { String(decoding: $0, as: UTF8.self) }
    }
    #expect(found == key)
  }
}
