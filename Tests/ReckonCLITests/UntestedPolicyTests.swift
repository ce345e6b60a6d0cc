import Foundation
import ReckonTestSupport
import Testing

/// `reckon test FOLDER` names a policy in it with no tests file beside it, and with
/// `--require-coverage` fails on it, so a CI gate does not pass over a policy nobody tested.
struct UntestedPolicyTests {
  /// A folder with a tested `targeted.policy` and an untested `prorate.policy`.
  static func folderWithAnUntestedPolicy() throws -> URL {
    let folder = TestScratch.folder.appendingPathComponent("reckon-untested-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    for name in ["targeted.policy", "targeted.tests"] {
      try FileManager.default.copyItem(
        at: ReckonBinary.packageRoot.appendingPathComponent("policies/\(name)"),
        to: folder.appendingPathComponent(name))
    }
    try Data("otherwise share data only\n".utf8).write(
      to: folder.appendingPathComponent("prorate.policy"))
    return folder
  }

  @Test func aPolicyWithoutTestsFailsTheRunWithRequireCoverageAndIsNamed() async throws {
    let folder = try Self.folderWithAnUntestedPolicy()
    let run = try await ReckonBinary.run(["test", "--require-coverage", folder.path])
    #expect(run.status == 1)
    #expect(
      run.standardOutput.contains(
        "--require-coverage: 1 policy has no tests:\n  \(folder.path)/prorate.policy (write "
          + "\(folder.path)/prorate.tests beside it)"), "\(run.standardOutput)")
  }

  @Test func aPolicyWithoutTestsIsANoteWithoutRequireCoverage() async throws {
    let folder = try Self.folderWithAnUntestedPolicy()
    let run = try await ReckonBinary.run(["test", folder.path])
    #expect(run.status == 0, "\(run.standardOutput)\(run.standardError)")
    #expect(
      run.standardOutput.contains("note: 1 policy has no tests:\n  \(folder.path)/prorate.policy"),
      "\(run.standardOutput)")
  }

  @Test(arguments: [(["--require-coverage"], false), ([], true)])
  func theJSONReportNamesAPolicyWithoutTests(_ flags: [String], _ passes: Bool) async throws {
    let folder = try Self.folderWithAnUntestedPolicy()
    let run = try await ReckonBinary.run(["test", "--format", "json"] + flags + [folder.path])
    #expect(run.status == (passes ? 0 : 1))
    let report = try #require(
      try JSONSerialization.jsonObject(with: Data(run.standardOutput.utf8)) as? [String: Any])
    #expect(report["passed"] as? Bool == passes)
    #expect(report["untested"] as? [String] == ["\(folder.path)/prorate.policy"])
  }
}
