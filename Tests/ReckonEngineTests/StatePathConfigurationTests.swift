import Foundation
import ReckonEngine
import ReckonSupport
import ReckonTestSupport
import Testing

/// `state.path` naming a folder is refused at its key, where the backend would only have said
/// "disk I/O error".
struct StatePathConfigurationTests {
  static func load(statePath: String) throws(ConfigurationError) -> ReckonConfiguration {
    let text = """
      {"apps": [{"bundleId": "com.example", "environment": "Sandbox", "policy": "a.policy"}],
       "state": {"path": "\(statePath)"}}
      """
    let root = (try? JSONValue.parse(Data(text.utf8)).objectValue) ?? [:]
    return try ReckonConfiguration(
      ConfigurationReader(root, path: ""), baseDirectory: TestScratch.folder.path)
  }

  @Test func aFolderIsRefusedAtStatePath() throws {
    let folder = "state-folder-\(UUID().uuidString)"
    try FileManager.default.createDirectory(
      at: TestScratch.folder.appendingPathComponent(folder), withIntermediateDirectories: true)
    let error = #expect(throws: ConfigurationError.self) { try Self.load(statePath: folder) }
    #expect(error?.key == "state.path")
    #expect(error?.problem.contains("is a folder; give the path of a file") == true, "\(error!)")
  }

  @Test func aFileNotMadeYetIsAccepted() throws {
    let name = "state-\(UUID().uuidString).sqlite"
    #expect(
      try Self.load(statePath: name).statePath
        == TestScratch.folder.appendingPathComponent(name).path)
  }
}
