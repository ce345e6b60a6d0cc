import Foundation
import ReckonEngine
import ReckonSupport
import ReckonTestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// Where the state is: `state.path` (an SQLite file; a folder is refused at its key, where the
/// backend would only have said "disk I/O error") or `state.url` (a PostgreSQL address, with its
/// password in `state.passwordFile`).
struct StateLocationConfigurationTests {
  static func load(statePath: String) throws(ConfigurationError) -> ReckonConfiguration {
    try load(state: #"{"path": "\#(statePath)"}"#)
  }

  static func load(state: String) throws(ConfigurationError) -> ReckonConfiguration {
    let text = """
      {"apps": [{"bundleId": "com.example", "environment": "Sandbox", "policy": "a.policy"}],
       "state": \(state)}
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

  @Test func aFIFOIsRefusedAtStatePath() throws {
    let name = "state-fifo-\(UUID().uuidString)"
    let path = TestScratch.folder.appendingPathComponent(name).path
    #expect(mkfifo(path, 0o600) == 0)
    defer { unlink(path) }
    let error = #expect(throws: ConfigurationError.self) { try Self.load(statePath: name) }
    #expect(error?.key == "state.path")
    #expect(error?.problem.contains("is a FIFO (named pipe), not a regular file") == true)
  }

  @Test func aFileNotMadeYetIsAccepted() throws {
    let name = "state-\(UUID().uuidString).sqlite"
    #expect(
      try Self.load(statePath: name).stateLocation
        == TestScratch.folder.appendingPathComponent(name).path)
  }

  @Test func aURLNamesAPostgreSQLStateWithItsPasswordFile() throws {
    let configuration = try Self.load(
      state: #"{"url": "postgres://reckon@db.internal:5432/reckon", "passwordFile": "pw"}"#)
    #expect(configuration.stateLocation == "postgres://reckon@db.internal:5432/reckon")
    #expect(configuration.statePasswordFile == TestScratch.folder.appendingPathComponent("pw").path)
  }

  @Test(arguments: [
    (#"{"url": "postgres://h/db", "path": "a.sqlite"}"#, "state.url", "not both"),
    (#"{"url": "mysql://h/db"}"#, "state.url", "postgres://user@host:port/database"),
    (#"{"path": "a.sqlite", "passwordFile": "pw"}"#, "state.passwordFile", "PostgreSQL"),
  ])
  func aStateThatNamesNoOneBackendIsRefusedAtItsKey(state: String, key: String, says: String) {
    let error = #expect(throws: ConfigurationError.self) { try Self.load(state: state) }
    #expect(error?.key == key)
    #expect(error?.problem.contains(says) == true, "\(error.map(String.init(describing:)) ?? "")")
  }
}
