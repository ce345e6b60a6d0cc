import Foundation
import ReckonHTTP
import ReckonTestSupport

/// The files of `examples/deploy/`, the tools that exercise them where this machine has them,
/// and a scratch folder per test.
enum DeployExample {
  /// The repository root, found from this file's path.
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

  /// A file of `examples/deploy/`, as text.
  static func text(_ path: String) throws -> String {
    try String(
      contentsOf: root.appendingPathComponent("examples/deploy/\(path)"), encoding: .utf8)
  }

  /// Whether every one of `tools` is an executable file here.
  static func installed(_ tools: String...) -> Bool {
    tools.allSatisfy { FileManager.default.isExecutableFile(atPath: $0) }
  }

  /// A fresh folder for one test.
  static func folder(_ name: String) throws -> URL {
    let folder = TestScratch.folder.appendingPathComponent("deploy-\(name)-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    return folder
  }

  /// A loopback port nothing listens on now: the system picks it for a listener that closes.
  static func freePort() throws -> Int {
    let probe = HTTPServer(configuration: .init()) { _ in .text(200, "") }
    let port = try probe.start()
    probe.shutdown(timeout: 1)
    return port
  }

  /// `text` with `original` replaced by `replacement`; fails when the example no longer holds
  /// `original`, so an edit of it cannot leave the test checking something else.
  static func substituting(_ original: String, _ replacement: String, in text: String)
    throws -> String
  {
    guard text.contains(original) else { throw Missing(text: original) }
    return text.replacingOccurrences(of: original, with: replacement)
  }

  /// A line the test substitutes is gone from the example.
  struct Missing: Error, CustomStringConvertible {
    let text: String
    var description: String { "the example no longer has \"\(text)\"" }
  }
}
