import Foundation
import ReckonSQLite
import ReckonTestSupport
import Testing

/// `reckon serve` pointed at another program's SQLite file refuses it before it takes the
/// sender's lock, so nothing is left beside the other program's file.
struct ServeStateCheckTests {
  @Test func anotherProgramsDatabaseIsRefusedWithoutALockFileBesideIt() async throws {
    let folder = TestScratch.folder.appendingPathComponent("reckon-serve-\(UUID().uuidString)")
      .path
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    // The app's own database, as examples/facts.sql makes it (in WAL mode, as apps run it).
    let facts = folder + "/facts.sqlite"
    let app = try SQLiteDatabase(path: facts, options: [.readWrite, .create])
    try app.execute(
      "PRAGMA journal_mode=WAL; CREATE TABLE purchases (transaction_id TEXT PRIMARY KEY)")
    let before = try Data(contentsOf: URL(fileURLWithPath: facts))
    let configuration = """
      {
        "apps": [{ "bundleId": "com.example.coins", "appAppleId": 1234567890, "environment": "Production", "policy": "\(ReckonBinary.packageRoot.path)/policies/targeted.policy" }],
        "state": { "path": "\(facts)" },
        "server": { "listen": "127.0.0.1:0" },
        "appStore": { "issuerId": "00000000-0000-0000-0000-000000000000", "keyId": "TEST123", "privateKeyPath": "\(folder)/no-key.p8" }
      }
      """
    try Data(configuration.utf8).write(to: URL(fileURLWithPath: folder + "/reckon.json"))
    let run = try await ReckonBinary.run(["serve", "--config", folder + "/reckon.json"])
    #expect(run.status != 0)
    #expect(
      run.standardError.contains("\(facts) is not a Reckon state database"), "\(run.standardError)")
    // (A reader of a WAL file makes its -shm and -wal, as the app's own readers do.)
    let left = try FileManager.default.contentsOfDirectory(atPath: folder)
    #expect(!left.contains { $0.hasSuffix(".lock") }, "\(left)")
    #expect(try Data(contentsOf: URL(fileURLWithPath: facts)) == before)
  }
}
