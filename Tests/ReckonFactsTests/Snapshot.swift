import Foundation
import Testing

/// Golden files: compares text with `Snapshots/<name>.txt` beside this file.
///
/// With `RECKON_UPDATE_SNAPSHOTS=1` in the environment the file is (re)written instead; otherwise a
/// missing snapshot is a failure, never silently created.
enum Snapshot {
  static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("Snapshots")

  static var isUpdating: Bool {
    ProcessInfo.processInfo.environment["RECKON_UPDATE_SNAPSHOTS"] == "1"
  }

  /// Records an issue unless `actual` equals the snapshot called `name`.
  static func expect(
    _ actual: String, matches name: String,
    sourceLocation: Testing.SourceLocation = #_sourceLocation
  ) {
    let url = directory.appendingPathComponent("\(name).txt")
    if isUpdating {
      do {
        try actual.write(to: url, atomically: true, encoding: .utf8)
      } catch {
        Issue.record(
          "could not write snapshot \(url.path): \(error)", sourceLocation: sourceLocation)
      }
      return
    }
    guard let expected = try? String(contentsOf: url, encoding: .utf8) else {
      Issue.record(
        "no snapshot at \(url.path); run with RECKON_UPDATE_SNAPSHOTS=1 to record it:\n\(actual)",
        sourceLocation: sourceLocation)
      return
    }
    #expect(actual == expected, "differs from snapshot \(name).txt", sourceLocation: sourceLocation)
  }
}
