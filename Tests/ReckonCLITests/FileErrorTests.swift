import Foundation
import ReckonTestSupport
import Testing

/// A file the user names that cannot be read is reported with its path and the plain problem,
/// never with Foundation's error codes or a system message that does not say why.
struct FileErrorTests {
  static let fixtures = "Tests/ReckonCLITests/Fixtures"
  static let policy = "policies/targeted.policy"
  static let request = "\(fixtures)/request.json"
  static let facts = "\(fixtures)/facts.json"

  static let cases: [CommandErrorCase] = [
    CommandErrorCase(
      arguments: ["eval", "--policy", fixtures, "--request", request, "--facts", facts],
      message: "\(fixtures): is a folder, not a file"),
    CommandErrorCase(
      arguments: ["eval", "--policy", policy, "--request", fixtures, "--facts", facts],
      message: "\(fixtures): is a folder, not a file"),
    CommandErrorCase(
      arguments: ["eval", "--policy", policy, "--request", request, "--facts", fixtures],
      message: "\(fixtures): is a folder, not a file"),
    CommandErrorCase(
      arguments: ["eval", "--policy", "nowhere.policy", "--request", request, "--facts", facts],
      message: "nowhere.policy: no such file"),
    CommandErrorCase(
      arguments: ["serve", "--config", fixtures],
      message: "\(fixtures): is a folder, not a file"),
    CommandErrorCase(
      arguments: ["dry-run", "--policy", policy, "--requests", fixtures, "--facts", facts],
      message: "\(fixtures): is a folder, not a file"),
    CommandErrorCase(
      arguments: ["test", "nowhere.tests"],
      message: "nowhere.tests: no such file"),
  ]

  @Test(arguments: cases)
  func aPathThatCannotBeReadIsNamedWithThePlainProblem(_ example: CommandErrorCase) async throws {
    let run = try await ReckonBinary.run(example.arguments)
    #expect(run.status == 1)
    #expect(run.standardError.contains(example.message), "\(run.standardError)")
    #expect(!run.standardError.contains("NSCocoaErrorDomain"), "\(run.standardError)")
    #expect(!run.standardError.contains("No such device"), "\(run.standardError)")
  }

  @Test func aBadFileInAFactsFolderIsNamedWithItsFolder() async throws {
    let folder = TestScratch.folder.appendingPathComponent("reckon-facts-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    try Data(#"{"byTransactionId": {}}"#.utf8).write(to: folder.appendingPathComponent("a.json"))
    try Data("[1]".utf8).write(to: folder.appendingPathComponent("b.json"))
    let requests = folder.appendingPathComponent("requests.jsonl").path
    try Data().write(to: URL(fileURLWithPath: requests))
    let run = try await ReckonBinary.run([
      "dry-run", "--policy", Self.policy, "--requests", requests, "--facts", folder.path,
    ])
    #expect(run.status == 1)
    #expect(
      run.standardError.contains("\(folder.path)/b.json: expected a JSON object"),
      "\(run.standardError)")
  }
}
