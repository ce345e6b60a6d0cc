import Foundation
import ReckonEngine
import ReckonTestSupport
import Testing

@testable import ReckonTools

/// Lines the fast reader must read exactly like `RequestFile.decode`, or reject with the same
/// kind of error naming the line: escapes, odd numbers, any key order, extra and nested members,
/// missing members and broken JSON.
struct NotificationLineEdgeCaseTests {
  private static let example = NotificationLineDecoderTests.example
    .split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.joined()

  private static func replacing(_ old: String, _ new: String) -> String {
    precondition(example.contains(old), "the example has no \(old)")
    return example.replacingOccurrences(of: old, with: new)
  }

  /// The transaction's members in reverse order, and the notification's too.
  private static var reordered: String {
    let transaction = example.range(of: "\"signedTransactionInfo\": {")!
    let close = example[transaction.upperBound...].firstIndex(of: "}")!
    let members = example[transaction.upperBound..<close].split(separator: ",")
    return example.replacingCharacters(
      in: transaction.upperBound..<close, with: members.reversed().joined(separator: ","))
  }

  /// Writes `line` as line 2 of a file and reads it both ways.
  private func readBoth(_ line: String) throws -> (
    fast: Result<RefundRequest?, DryRunError>, general: Result<RefundRequest, RequestFile.Failure>
  ) {
    try readBoth(bytes: Array(line.utf8))
  }

  /// Writes `line`'s bytes (which need not be UTF-8) as line 2 of a file and reads them both ways.
  private func readBoth(bytes line: [UInt8]) throws -> (
    fast: Result<RefundRequest?, DryRunError>, general: Result<RefundRequest, RequestFile.Failure>
  ) {
    let folder = TestScratch.folder.appendingPathComponent(
      "reckon-edge-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = folder.appendingPathComponent("edge.jsonl").path
    try Data([0x0A] + line + [0x0A]).write(to: URL(fileURLWithPath: path))
    let fast = Result { () throws(DryRunError) -> RefundRequest? in
      try DryRunSetup.pastRequests(RequestLines(path: path), verifier: nil).requests.first?.request
    }
    let general = Result { () throws(RequestFile.Failure) -> RefundRequest in
      try RequestFile.decode(Data(line), path: path)
    }
    return (fast, general)
  }

  @Test(arguments: [
    ("escaped quote and backslash", replacing("\"3.2.1\"", #""3.2\"1\\""#)),
    (
      "unicode escape in an id",
      replacing("\"2000000812345678\",", "\"20000008123456\\u0037\\u0038\",")
    ),
    ("unicode escape beyond ASCII", replacing("\"USA\"", "\"U\\u00e9A\"")),
    ("escaped slash in a product id", replacing("coins.pack500", "coins\\/pack500")),
    // Long strings are checked for escapes eight bytes at a time; these land inside a word.
    ("an escape deep in a long string", replacing("coins.pack500", "coins.pack5\\u00300")),
    ("UTF-8 beyond ASCII in a long string", replacing("coins.pack500", "coins.päck500€")),
    ("a DEL character in a long string", replacing("coins.pack500", "coins.pack\u{7F}500")),
    (
      "fractional milliseconds",
      replacing("\"signedDate\": 1793522400000,", "\"signedDate\": 1793522400000.25,")
    ),
    (
      "exponent milliseconds",
      replacing("\"purchaseDate\": 1793263200000", "\"purchaseDate\": 1.7932632e12")
    ),
    ("members in reverse order", reordered),
    (
      "an unknown top-level member",
      replacing(
        "\"version\": \"2.0\",", "\"version\": \"2.0\", \"x\": {\"a\": [1, {\"b\": \"}\"}]},")
    ),
    (
      "an unknown member in data",
      replacing(
        "\"bundleVersion\": \"3.2.1\",",
        "\"bundleVersion\": \"3.2.1\", \"nested\": {\"deep\": {\"deeper\": [true, null]}},")
    ),
    (
      "an unknown member in the transaction",
      replacing("\"quantity\": 1,", "\"quantity\": 1, \"future\": {\"x\": \"{\\\"y\\\"\"},")
    ),
    (
      "upper-case account token",
      replacing("7e3fb20b-4cdb-47cc-936d-99d65f608138", "7E3FB20B-4CDB-47CC-936D-99D65F608138")
    ),
    (
      "every optional transaction member",
      replacing(
        "\"currency\": \"USD\"",
        "\"currency\": \"USD\", \"webOrderLineItemId\": \"w1\", \"subscriptionGroupIdentifier\": \"g\", \"expiresDate\": 1793522400001, \"isUpgraded\": false, \"offerType\": 2, \"offerIdentifier\": \"o\", \"offerDiscountType\": \"FREE_TRIAL\", \"appTransactionId\": \"a1\", \"offerPeriod\": \"P1M\", \"revocationDate\": 1793522400002, \"revocationReason\": 1, \"revocationType\": \"REFUND_FULL\", \"revocationPercentage\": 50000, \"billingPlanType\": \"x\""
      )
    ),
    ("white space everywhere", replacing("\"quantity\": 1,", "\"quantity\" :\t1 ,")),
  ])
  func readsLikeRequestFile(_ name: String, _ line: String) throws {
    let (fast, general) = try readBoth(line)
    switch (fast, general) {
    case (.success(let fast), .success(let general)): #expect(fast == general, "\(name)")
    default: Issue.record("\(name): fast \(fast), general \(general)")
    }
  }

  @Test(arguments: [
    ("a truncated line", String(example.dropLast(3))),
    ("trailing garbage", example + " x"),
    ("an unquoted key", replacing("\"quantity\": 1,", "quantity: 1,")),
    ("a string where a number belongs", replacing("\"quantity\": 1,", "\"quantity\": \"1\",")),
    ("a number where a string belongs", replacing("\"USA\"", "7")),
    ("a bad account token", replacing("7e3fb20b-4cdb", "7e3fb20b_4cdb")),
    ("no transaction", replacing("\"signedTransactionInfo\"", "\"otherInfo\"")),
    (
      "no signed date",
      replacing("\"version\": \"2.0\",\"signedDate\": 1793522400000,", "\"version\": \"2.0\",")
    ),
    ("an array, not an object", "[" + example + "]"),
    ("a raw control character in a string", replacing("\"USA\"", "\"U\u{01}A\"")),
    ("a raw tab deep in a long string", replacing("coins.pack500", "coins.pack\t500")),
    ("a word that only starts like null", replacing("\"quantity\": 1,", "\"quantity\": nope,")),
    (
      "a repeated transaction member",
      replacing("\"quantity\": 1,", "\"quantity\": 1, \"quantity\": 2,")
    ),
    (
      "a repeated member set to null",
      replacing("\"quantity\": 1,", "\"quantity\": 1, \"quantity\": null,")
    ),
    (
      "a repeated data member",
      replacing(
        "\"bundleVersion\": \"3.2.1\",", "\"bundleVersion\": \"3.2.1\", \"bundleVersion\": \"4\",")
    ),
    (
      "a repeated top-level member",
      replacing("\"version\": \"2.0\",", "\"version\": \"2.0\",\"version\": \"2.0\",")
    ),
    ("a raw unit separator in a long string", replacing("coins.pack500", "coins.pack50\u{1F}0")),
  ])
  func rejectsLikeRequestFile(_ name: String, _ line: String) throws {
    let (fast, general) = try readBoth(line)
    if name.hasPrefix("a repeated") {
      #expect(throws: RequestFile.Failure.self, "\(name)") { try general.get() }
      #expect(throws: DryRunError.self, "\(name)") { try fast.get() }
    }
    switch (fast, general) {
    case (.success(let fast), .success(let general)):
      // Both accept it (the general decoder is lenient here too): they must agree.
      #expect(fast == general, "\(name)")
    case (.failure(let error), .failure):
      #expect(error.description.contains("edge.jsonl:2"), "\(name): \(error.description)")
    default: Issue.record("\(name): fast \(fast), general \(general)")
    }
  }

  @Test(arguments: [
    ("a lone continuation byte in a long string", "coins.pack500", [0x80] as [UInt8]),
    ("a byte that is never UTF-8", "coins.pack500", [0xFF]),
    ("a truncated two-byte sequence", "USA", [0xC3]),
    ("an encoded surrogate", "coins.pack500", [0xED, 0xA0, 0x80]),
  ])
  func bytesThatAreNotUTF8AreRefusedLikeRequestFile(
    _ name: String, _ inside: String, _ bad: [UInt8]
  ) throws {
    let text = Self.example
    let range = try #require(text.range(of: inside))
    let line =
      Array(text[..<range.upperBound].utf8) + bad + Array(text[range.upperBound...].utf8)
    let (fast, general) = try readBoth(bytes: line)
    #expect(throws: RequestFile.Failure.self, "\(name)") { try general.get() }
    #expect(throws: DryRunError.self, "\(name)") { try fast.get() }
  }

  /// Strings are read eight bytes at a time: lines whose strings end before, on and after a
  /// word's end, or hold what the fast reader refuses in their first or last word.
  static let stringsAWordAtATime: [(String, String)] = [
    ("a string of 7 bytes", replacing("\"3.2.1\"", "\"3.2.1.0\"")),
    ("a string of 8 bytes", replacing("\"3.2.1\"", "\"3.2.1.00\"")),
    ("a string of 9 bytes", replacing("\"3.2.1\"", "\"3.2.1.000\"")),
    ("a string of 16 bytes", replacing("\"3.2.1\"", "\"3.2.1.0000000000\"")),
    ("a string of 17 bytes", replacing("\"3.2.1\"", "\"3.2.1.00000000000\"")),
    ("an escape in the last word of a string", replacing("\"3.2.1\"", "\"3.2.1.0000\\n\"")),
    ("an empty string", replacing("\"3.2.1\"", "\"\"")),
    ("beyond ASCII in the first word", replacing("\"3.2.1\"", "\"ü3.2.1.0000000000\"")),
  ]

  /// The same, for lines neither reader takes.
  static let brokenStringsAWordAtATime: [(String, String)] = [
    (
      "a line cut inside a long string",
      String(example[..<example.range(of: "coins.pack500")!.upperBound])
    ),
    ("a control character on a word's last byte", replacing("\"3.2.1\"", "\"3.2.1.0\u{01}\"")),
  ]

  @Test(arguments: stringsAWordAtATime)
  func stringsReadAWordAtATimeReadLikeRequestFile(_ name: String, _ line: String) throws {
    try readsLikeRequestFile(name, line)
  }

  @Test(arguments: brokenStringsAWordAtATime)
  func brokenStringsReadAWordAtATimeAreRejectedLikeRequestFile(_ name: String, _ line: String)
    throws
  {
    try rejectsLikeRequestFile(name, line)
  }
}
