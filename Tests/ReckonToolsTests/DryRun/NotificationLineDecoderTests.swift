import Foundation
import ReckonEngine
import ReckonTestSupport
import Testing

@testable import ReckonTools

/// The requests file's fast reader gives what `RequestFile.decode` gives, and takes the general
/// path for anything it does not read plainly.
struct NotificationLineDecoderTests {
  static let example = try! String(
    contentsOf: DryRunFixture.repository.appendingPathComponent("examples/eval/request.json"),
    encoding: .utf8)

  private func readBoth(_ text: String) async throws -> (RefundRequest?, RefundRequest) {
    let folder = TestScratch.folder.appendingPathComponent(
      "reckon-lines-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let path = folder.appendingPathComponent("one.jsonl").path
    let line = text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.joined()
    try Data((line + "\n").utf8).write(to: URL(fileURLWithPath: path))
    let read = try DryRunSetup.pastRequests(RequestLines(path: path), verifier: nil)
    return (read.requests.first?.request, try RequestFile.decode(Data(line.utf8), path: path))
  }

  @Test(arguments: [
    ("the eval example", example),
    ("an escaped string", example.replacingOccurrences(of: "\"3.2.1\"", with: "\"3.2\\u002e1\"")),
    (
      "a fractional date",
      example.replacingOccurrences(
        of: "\"purchaseDate\": 1793263200000", with: "\"purchaseDate\": 1793263200000.5")
    ),
    (
      "an unknown key",
      example.replacingOccurrences(
        of: "\"version\": \"2.0\",", with: "\"version\": \"2.0\", \"extra\": [1, {\"a\": null}],")
    ),
    (
      "a null field",
      example.replacingOccurrences(of: "\"storefront\": \"USA\"", with: "\"storefront\": null")
    ),
  ])
  func readsLikeRequestFile(_ name: String, _ text: String) async throws {
    let (fast, general) = try await readBoth(text)
    #expect(fast == general, "\(name)")
  }

  @Test func generatedLinesReadLikeRequestFile() throws {
    let fixture = try DryRunFixture.shared()
    let text = try String(contentsOfFile: fixture.files.requests, encoding: .utf8)
    let fast = try fixture.pastRequests().prefix(500).map(\.request)
    let general = try text.split(separator: "\n").prefix(500).map {
      try RequestFile.decode(Data($0.utf8), path: "x")
    }
    #expect(fast == general)
  }

  @Test func otherNotificationTypesAreCountedAndLeftOut() throws {
    let folder = TestScratch.folder.appendingPathComponent(
      "reckon-lines-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let path = folder.appendingPathComponent("mixed.jsonl").path
    let line = Self.example.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
      .joined()
    let refund = line.replacingOccurrences(of: "CONSUMPTION_REQUEST", with: "REFUND")
    try Data((line + "\n\n" + refund + "\n").utf8).write(to: URL(fileURLWithPath: path))
    let read = try DryRunSetup.pastRequests(RequestLines(path: path), verifier: nil)
    #expect(read.requests.count == 1)
    #expect(read.ignored == 1)
  }

  @Test func aBrokenLineIsAnErrorNamingTheLine() throws {
    let folder = TestScratch.folder.appendingPathComponent(
      "reckon-lines-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let path = folder.appendingPathComponent("broken.jsonl").path
    try Data("\n{\"notificationType\": \n".utf8).write(to: URL(fileURLWithPath: path))
    let error = #expect(throws: DryRunError.self) {
      _ = try DryRunSetup.pastRequests(RequestLines(path: path), verifier: nil)
    }
    #expect(error?.description.contains("broken.jsonl:2") == true)
  }
}
