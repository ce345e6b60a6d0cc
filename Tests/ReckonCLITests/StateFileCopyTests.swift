import Foundation
import ReckonEngine
import ReckonTestSupport
import Testing

@testable import ReckonStateSQLite

/// A command that writes the state database leaves the file complete on its own, so copying
/// `reckon-state.sqlite` without its `-wal` (a backup, a move to another machine) loses nothing.
struct StateFileCopyTests {
  @Test func theStateFileAloneHoldsEverythingGenerateWrote() async throws {
    let folder = TestScratch.folder.appendingPathComponent("reckon-copy-\(UUID().uuidString)").path
    let run = try await ReckonBinary.run([
      "generate", "--out", folder, "--count", "40", "--state", "yes",
    ])
    #expect(run.status == 0, "\(run.standardError)")
    let copy = folder + "/copy"
    try FileManager.default.createDirectory(atPath: copy, withIntermediateDirectories: true)
    try FileManager.default.copyItem(
      atPath: folder + "/reckon-state.sqlite", toPath: copy + "/reckon-state.sqlite")
    let original = try SQLiteStateStore(
      path: folder + "/reckon-state.sqlite", rules: .appStore, access: .readOnly)
    let copied = try SQLiteStateStore(
      path: copy + "/reckon-state.sqlite", rules: .appStore, access: .readOnly)
    // The generator's transaction ids count up from 2000000000000000, one request each.
    var requests = 0
    for index in 0..<40 {
      requests += try copied.requestCount(
        transactionId: String(2_000_000_000_000_000 + index), before: .distantFuture)
    }
    #expect(requests == 40)
    let entries = try original.entries().count
    #expect(entries > 0)
    #expect(try copied.entries().count == entries)
  }
}
