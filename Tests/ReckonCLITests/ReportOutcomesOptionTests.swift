import Foundation
import ReckonTestSupport
import Testing

/// `reckon report outcomes` finds the state database as `reckon queue` does: `--state`, else the
/// one `reckon.json` names.
struct ReportOutcomesOptionTests {
  static func generated() async throws -> String {
    let folder = TestScratch.folder.appendingPathComponent("reckon-report-\(UUID().uuidString)")
      .path
    let run = try await ReckonBinary.run([
      "generate", "--out", folder, "--count", "60", "--state", "yes",
    ])
    #expect(run.status == 0, "\(run.standardError)")
    return folder
  }

  @Test func withoutStateItReadsTheDatabaseTheConfigurationNames() async throws {
    let folder = try await Self.generated()
    let byState = try await ReckonBinary.run([
      "report", "outcomes", "--state", folder + "/reckon-state.sqlite",
    ])
    let byConfig = try await ReckonBinary.run([
      "report", "outcomes", "--config", folder + "/reckon.json",
    ])
    let inFolder = try await ReckonBinary.run(
      ["report", "outcomes"], in: URL(fileURLWithPath: folder))
    #expect(byState.status == 0, "\(byState.standardError)")
    #expect(byConfig.status == 0, "\(byConfig.standardError)")
    #expect(inFolder.status == 0, "\(inFolder.standardError)")
    #expect(!byState.standardOutput.isEmpty)
    #expect(byConfig.standardOutput == byState.standardOutput)
    #expect(inFolder.standardOutput == byState.standardOutput)
  }

  @Test func withNeitherStateNorAConfigurationItSaysWhatIsMissing() async throws {
    let empty = TestScratch.folder.appendingPathComponent(
      "reckon-report-empty-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
    let run = try await ReckonBinary.run(["report", "outcomes"], in: empty)
    #expect(run.status == 2, "\(run.standardError)")
    #expect(run.standardError.contains("missing --state"), "\(run.standardError)")
  }
}
