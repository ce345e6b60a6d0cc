import Foundation
import ReckonTestSupport
import Testing

/// `reckon simulate --init-ca` never replaces a CA a server may trust unless told to.
struct SimulateInitCATests {
  @Test func anExistingCAIsKeptUnlessForced() async throws {
    let folder = TestScratch.folder.appendingPathComponent("reckon-ca-\(UUID().uuidString)").path
    let first = try await ReckonBinary.run(["simulate", "--init-ca", folder])
    #expect(first.status == 0, "\(first.standardError)")
    let root = URL(fileURLWithPath: folder + "/root.pem")
    let trusted = try Data(contentsOf: root)

    let again = try await ReckonBinary.run(["simulate", "--init-ca", folder])
    #expect(again.status != 0)
    #expect(again.standardError.contains("\(folder)/root.pem"), "\(again.standardError)")
    #expect(again.standardError.contains("--force"))
    #expect(try Data(contentsOf: root) == trusted)

    let forced = try await ReckonBinary.run(["simulate", "--init-ca", folder, "--force"])
    #expect(forced.status == 0, "\(forced.standardError)")
    #expect(try Data(contentsOf: root) != trusted)
  }

  @Test func forceWithoutInitCASaysWhereItBelongs() async throws {
    let run = try await ReckonBinary.run([
      "simulate", "--ca", "/nonexistent", "--url", "http://127.0.0.1:9/", "--force",
    ])
    #expect(run.status == 2, "\(run.standardError)")
    #expect(run.standardError.contains("--force only goes with --init-ca"), "\(run.standardError)")
  }
}
