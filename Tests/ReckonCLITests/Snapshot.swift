import Foundation
import Testing

/// Golden files in `Snapshots/` beside the tests, named after the test. Set RECKON_UPDATE_SNAPSHOTS=1
/// to write them from the current output instead of comparing.
enum Snapshot {
  static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("Snapshots")

  static func assert(
    _ actual: String, named name: String, sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    let file = folder.appendingPathComponent(name + ".txt")
    if ProcessInfo.processInfo.environment["RECKON_UPDATE_SNAPSHOTS"] == "1" {
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      try actual.write(to: file, atomically: true, encoding: .utf8)
      return
    }
    let expected = try? String(contentsOf: file, encoding: .utf8)
    try #require(
      expected != nil, "no golden file \(file.path); run with RECKON_UPDATE_SNAPSHOTS=1",
      sourceLocation: sourceLocation)
    #expect(
      actual == expected, "output differs from \(file.lastPathComponent)",
      sourceLocation: sourceLocation)
  }
}
