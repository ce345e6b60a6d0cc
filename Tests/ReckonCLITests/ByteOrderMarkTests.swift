import Foundation
import ReckonEngine
import ReckonFacts
import ReckonPolicy
import ReckonTestSupport
import Testing

/// A JSON file saved "UTF-8 with BOM" (as Windows Notepad does) reads like the same file
/// without one, as policy files and requests files already do: a request, a facts file, a fact
/// source's file and the configuration.
struct ByteOrderMarkTests {
  static let fixtures = ReckonBinary.packageRoot.path + "/Tests/ReckonCLITests/Fixtures"

  /// A copy of `path` in a fresh folder, with a byte order mark in front.
  static func withMark(_ path: String) throws -> String {
    let folder = TestScratch.folder.appendingPathComponent("reckon-bom-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let copy = folder.appendingPathComponent(URL(fileURLWithPath: path).lastPathComponent)
    try (Data([0xEF, 0xBB, 0xBF]) + Data(contentsOf: URL(fileURLWithPath: path))).write(to: copy)
    return copy.path
  }

  @Test func evalReadsARequestAndFactsFileWithAMark() async throws {
    let plain = [
      "eval", "--policy", "policies/targeted.policy", "--request", "\(Self.fixtures)/request.json",
      "--facts", "\(Self.fixtures)/facts.json",
    ]
    let marked = [
      "eval", "--policy", "policies/targeted.policy", "--request",
      try Self.withMark("\(Self.fixtures)/request.json"), "--facts",
      try Self.withMark("\(Self.fixtures)/facts.json"),
    ]
    let expected = try await ReckonBinary.run(plain)
    let run = try await ReckonBinary.run(marked)
    #expect(run.status == 0, "\(run.transcript)")
    #expect(run.standardOutput == expected.standardOutput)
  }

  @Test func aFactSourceFileWithAMarkIsRead() throws {
    let path = try Self.withMark(ReckonBinary.packageRoot.path + "/examples/facts.json")
    let source = try JSONFileFactSource(name: "notes", path: path, schema: .standard)
    let keys = RequestKeys(
      transactionId: "2000000800000201", originalTransactionId: nil, appAccountToken: nil,
      productId: nil, bundleId: nil)
    #expect(try source.lookup(keys)["usage.consumed"] == .percent(0))
  }

  @Test func aConfigurationWithAMarkIsRead() throws {
    let path = try Self.withMark(ReckonBinary.packageRoot.path + "/examples/reckon.json")
    let configuration = try ReckonConfiguration.load(path: path)
    #expect(configuration.apps.count > 0)
  }
}
