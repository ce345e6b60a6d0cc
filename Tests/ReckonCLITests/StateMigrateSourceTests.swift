import Foundation
import ReckonTestSupport
import Testing

/// `reckon state migrate --from` names an SQLite state: anything else is refused before the
/// sender lock is taken, so no lock file is left beside a path that is no state.
struct StateMigrateSourceTests {
  static let target = "postgres://reckon@127.0.0.1:1/reckon"

  @Test(
    arguments: [
      ("missing.sqlite", nil, "does not exist: no such file"),
      ("notes.txt", "my notes\n", "is not a Reckon state database"),
    ] as [(String, String?, String)])
  func aSourceThatIsNoStateIsRefusedAndLeavesNoLockFile(
    name: String, contents: String?, said: String
  ) async throws {
    let folder = TestScratch.folder.appendingPathComponent("migrate-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let path = folder.appendingPathComponent(name).path
    if let contents { try Data(contents.utf8).write(to: URL(fileURLWithPath: path)) }
    let run = try await ReckonBinary.run([
      "state", "migrate", "--from", path, "--to", Self.target,
    ])
    #expect(run.status == 1)
    #expect(run.standardError.contains(said), "\(run.standardError)")
    #expect(!FileManager.default.fileExists(atPath: path + ".send.lock"))
  }

  @Test func aDatabaseAddressAsTheSourceIsAUsageError() async throws {
    let run = try await ReckonBinary.run([
      "state", "migrate", "--from", "postgres://reckon@db/old", "--to", Self.target,
    ])
    #expect(run.status == 2)
    #expect(
      run.standardError.contains("--from takes the SQLite state file to move"),
      "\(run.standardError)")
  }
}
