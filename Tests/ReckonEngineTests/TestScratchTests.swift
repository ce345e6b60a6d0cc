import Foundation
import Testing

@testable import ReckonTestSupport

/// Test runs leave nothing in the temporary folder: each process writes in its own folder, and
/// the folders of runs that died before removing theirs go on the next run.
struct TestScratchTests {
  @Test func onlyTheFoldersOfProcessesThatAreGoneAreRemoved() throws {
    let temporary = TestScratch.folder.appendingPathComponent("leftovers-\(UUID())")
    defer { try? FileManager.default.removeItem(at: temporary) }
    // A process that has exited: its id names no process once it has been waited for.
    let finished = ChildProcess()
    finished.executableURL = URL(fileURLWithPath: "/bin/true")
    try finished.run()
    finished.waitUntilExit()
    let names = [
      TestScratch.prefix + String(finished.processIdentifier),
      TestScratch.prefix + String(getpid()),
      TestScratch.prefix + "1",
      TestScratch.prefix + "not-a-pid",
      "reckon-other",
    ]
    for name in names {
      let folder = temporary.appendingPathComponent(name)
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      try Data("x".utf8).write(to: folder.appendingPathComponent("state.sqlite"))
    }

    #expect(TestScratch.removeLeftovers(in: temporary) == 1)
    let left = try FileManager.default.contentsOfDirectory(atPath: temporary.path).sorted()
    #expect(left == names.dropFirst().sorted())
  }

  @Test func theProcessFolderIsNamedForThisProcessAndExists() {
    #expect(TestScratch.folder.lastPathComponent == TestScratch.prefix + String(getpid()))
    var isFolder: ObjCBool = false
    #expect(FileManager.default.fileExists(atPath: TestScratch.folder.path, isDirectory: &isFolder))
    #expect(isFolder.boolValue)
  }
}
