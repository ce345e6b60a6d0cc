import Foundation
import ReckonFacts
import ReckonPolicy
import Synchronization
import Testing

struct JSONFileFactSourceTests {
  @Test func transactionFactsWinOverAccountFacts() async throws {
    let file = try Fixtures.temporaryFolder().appendingPathComponent("facts.json")
    try Fixtures.write(
      #"{"byTransactionId": {"1": {"usage.consumed": "40%"}}, "byAppAccountToken": {"7F3A2C1E-0B4D-4E5F-8A9B-1C2D3E4F5A6B": {"usage.consumed": "90%", "customer.consented": true}}}"#,
      to: file)
    let source = try JSONFileFactSource(name: "notes", path: file.path, schema: .standard)
    let facts = try await source.facts(
      for: Fixtures.keys(transaction: "1", token: "7f3a2c1e-0b4d-4e5f-8a9b-1c2d3e4f5a6b"))
    #expect(facts == ["usage.consumed": .percent(40), "customer.consented": .boolean(true)])
    #expect(try await source.facts(for: Fixtures.keys(transaction: "2")).isEmpty)
  }

  /// Account tokens are matched lower-case, however the caller of a source spells one.
  @Test func anAccountTokenGivenInUpperCaseIsFound() async throws {
    let file = try Fixtures.temporaryFolder().appendingPathComponent("facts.json")
    try Fixtures.write(
      #"{"byAppAccountToken": {"7f3a2c1e-0b4d-4e5f-8a9b-1c2d3e4f5a6b": {"usage.consumed": "90%"}}}"#,
      to: file)
    let source = try JSONFileFactSource(name: "notes", path: file.path, schema: .standard)
    let keys = Fixtures.keys(transaction: "1", token: "7F3A2C1E-0B4D-4E5F-8A9B-1C2D3E4F5A6B")
    #expect(keys.appAccountToken == "7f3a2c1e-0b4d-4e5f-8a9b-1c2d3e4f5a6b")
    #expect(try await source.facts(for: keys) == ["usage.consumed": .percent(90)])
  }

  @Test func theExampleFileReads() async throws {
    let source = try JSONFileFactSource(
      name: "notes", path: Fixtures.repo("examples/facts.json").path, schema: .standard)
    #expect(
      try await source.facts(for: Fixtures.exampleKeys) == ["customer.override": .enumeration(3)])
  }

  @Test func anEditedFileIsReadAgain() async throws {
    let file = try Fixtures.temporaryFolder().appendingPathComponent("facts.json")
    try Fixtures.write(#"{"byTransactionId": {"1": {"usage.consumed": "40%"}}}"#, to: file)
    let source = try JSONFileFactSource(name: "notes", path: file.path, schema: .standard)
    #expect(
      try await source.facts(for: Fixtures.keys(transaction: "1")) == [
        "usage.consumed": .percent(40)
      ])
    try Fixtures.write(#"{"byTransactionId": {"1": {"usage.consumed": "75%"}}}"#, to: file)
    #expect(
      try await source.facts(for: Fixtures.keys(transaction: "1")) == [
        "usage.consumed": .percent(75)
      ])
  }

  /// A broken edit is reported once, and until it is fixed the source fails, so requests wait
  /// and are tried again rather than be decided for good on the version it replaced.
  @Test func aBrokenEditFailsTheSourceUntilFixedAndIsReportedOnce() async throws {
    let file = try Fixtures.temporaryFolder().appendingPathComponent("facts.json")
    try Fixtures.write(#"{"byTransactionId": {"1": {"usage.consumed": "40%"}}}"#, to: file)
    let reports = Mutex<[String]>([])
    let source = try JSONFileFactSource(name: "notes", path: file.path, schema: .standard) {
      error in
      reports.withLock { $0.append(error.description) }
    }
    try Fixtures.write(#"{"byTransactionId": {"1": {"usage.consumed": "140%"}}}"#, to: file)
    for _ in 0..<2 {
      await #expect(throws: JSONFileFactSourceError.self) {
        _ = try await source.facts(for: Fixtures.keys(transaction: "1"))
      }
    }
    #expect(try source.lookup(Fixtures.keys(transaction: "1")) == ["usage.consumed": .percent(40)])
    let expected = "\(file.path): byTransactionId.1: usage.consumed: '140%' is not a percent"
    #expect(reports.withLock { $0.count == 1 && $0[0].hasPrefix(expected) })
    #expect(source.lastReloadError?.description.hasPrefix(expected) == true)
    try Fixtures.write(#"{"byTransactionId": {"1": {"usage.consumed": "50%"}}}"#, to: file)
    #expect(
      try await source.facts(for: Fixtures.keys(transaction: "1")) == [
        "usage.consumed": .percent(50)
      ])
    #expect(source.lastReloadError == nil)
  }

  /// An editor's hidden file in the folder (emacs's `.#notes.json` lock, a dangling link) is
  /// not read: it stopped start-up with "no such file".
  @Test func hiddenFilesInTheFolderAreNotRead() async throws {
    let folder = try Fixtures.temporaryFolder()
    try Fixtures.write(
      #"{"byTransactionId": {"1": {"usage.consumed": "40%"}}}"#,
      to: folder.appendingPathComponent("notes.json"))
    try FileManager.default.createSymbolicLink(
      atPath: folder.appendingPathComponent(".#notes.json").path,
      withDestinationPath: "user@host.1234:1700000000")
    let source = try JSONFileFactSource(name: "notes", path: folder.path, schema: .standard)
    #expect(
      try await source.facts(for: Fixtures.keys(transaction: "1")) == [
        "usage.consumed": .percent(40)
      ])
  }

  @Test func aFolderOfFilesIsReadInNameOrder() async throws {
    let folder = try Fixtures.temporaryFolder()
    try Fixtures.write(
      #"{"byTransactionId": {"1": {"usage.consumed": "40%"}}}"#,
      to: folder.appendingPathComponent("a.json"))
    try Fixtures.write(
      #"{"byAppAccountToken": {"t": {"customer.consented": false}}}"#,
      to: folder.appendingPathComponent("b.json"))
    try Fixtures.write("not json, not read", to: folder.appendingPathComponent("notes.txt"))
    let source = try JSONFileFactSource(name: "notes", path: folder.path, schema: .standard)
    let facts = try await source.facts(for: Fixtures.keys(transaction: "1", token: "t"))
    #expect(facts == ["usage.consumed": .percent(40), "customer.consented": .boolean(false)])
    try Fixtures.write(
      #"{"byTransactionId": {"2": {"usage.consumed": "10%"}}}"#,
      to: folder.appendingPathComponent("c.json"))
    #expect(
      try await source.facts(for: Fixtures.keys(transaction: "2")) == [
        "usage.consumed": .percent(10)
      ])
  }

  struct Broken: CustomTestStringConvertible, Sendable {
    let json: String
    let message: String
    var testDescription: String { message }
  }

  @Test(arguments: [
    Broken(
      json: #"{"byTransactionId": {"1": {"usage.consumd": "4%"}}}"#,
      message:
        "facts.json: byTransactionId.1: usage.consumd: unknown fact (did you mean 'usage.consumed'?)"
    ),
    Broken(
      json: #"{"byTransactionId": {"1": {"reason": "LEGAL"}}}"#,
      message:
        "facts.json: byTransactionId.1: reason: only the signed notification may give this fact"),
    Broken(
      json: #"{"byTransactionIds": {}}"#,
      message:
        "facts.json: byTransactionIds: unknown key; use byTransactionId or byAppAccountToken (did you mean 'byTransactionId'?)"
    ),
    Broken(
      json: #"{"byTransactionId": {"1": 5}}"#,
      message: "facts.json: byTransactionId.1: expected a JSON object"),
    Broken(json: "[1]", message: "facts.json: expected a JSON object"),
    Broken(
      json: #"{"byTransactionId": {"1": {"usage.consumed": 40}}}"#,
      message:
        "facts.json: byTransactionId.1: usage.consumed: is a percent; write it as text"
    ),
  ])
  func aBadFileIsRefusedWithTheJSONPath(_ broken: Broken) throws {
    let file = try Fixtures.temporaryFolder().appendingPathComponent("facts.json")
    try Fixtures.write(broken.json, to: file)
    let error = try #require(throws: JSONFileFactSourceError.self) {
      try JSONFileFactSource(name: "notes", path: file.path, schema: .standard)
    }
    // The message names the file by the path it was given as, folder included.
    #expect(
      error.description.hasPrefix(file.path + broken.message.dropFirst("facts.json".count)),
      "\(error)")
  }

  /// A syntax error is placed at its line and column with the line and a caret, as in
  /// `reckon.json` and `--facts`, rather than said to be "not a JSON object".
  @Test func aSyntaxErrorIsPlacedAtItsLineAndColumn() throws {
    let file = try Fixtures.temporaryFolder().appendingPathComponent("facts.json")
    try Fixtures.write(
      "{\n  \"byTransactionId\": {\"1\": {\"usage.consumed\": 40%}}\n}\n", to: file)
    let error = try #require(throws: JSONFileFactSourceError.self) {
      try JSONFileFactSource(name: "notes", path: file.path, schema: .standard)
    }
    #expect(
      error.description == """
        \(file.path):2:49: is not valid JSON: expected ',' or '}'
            2 |   "byTransactionId": {"1": {"usage.consumed": 40%}}
              |                                                 ^
        """)
    #expect(!error.isUnavailable)
  }

  @Test func theSameKeyInTwoFilesIsRefused() throws {
    let folder = try Fixtures.temporaryFolder()
    try Fixtures.write(
      #"{"byTransactionId": {"1": {}}}"#, to: folder.appendingPathComponent("a.json"))
    try Fixtures.write(
      #"{"byTransactionId": {"1": {}}}"#, to: folder.appendingPathComponent("b.json"))
    let error = try #require(throws: JSONFileFactSourceError.self) {
      try JSONFileFactSource(name: "n", path: folder.path, schema: .standard)
    }
    #expect(
      error.description
        == "byTransactionId.1 is given by both \(folder.path)/a.json and \(folder.path)/b.json")
  }
}
