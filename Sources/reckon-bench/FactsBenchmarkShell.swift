import Foundation
import ReckonFacts
import ReckonTestSupport

/// The floor for the facts benchmark: the same three queries for the same requests, run by the
/// `sqlite3` shell in one process from a script of literal queries, timed from outside.
enum FactsBenchmarkShell {
  /// Microseconds per request, after subtracting the shell's start-up time.
  static func measure(database: String, queries: [String: String], keys: [RequestKeys]) throws
    -> Double
  {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "reckon-bench-\(getpid())")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let script = folder.appendingPathComponent("queries.sql")
    let empty = folder.appendingPathComponent("empty.sql")
    try Data(self.script(queries: queries, keys: keys).utf8).write(to: script)
    try Data("SELECT 1;\n".utf8).write(to: empty)
    let startup =
      (0..<3).map { _ in (try? time(database: database, script: empty)) ?? 0 }.min() ?? 0
    let runs = try (0..<3).map { _ in try time(database: database, script: script) }
    return max(0, (runs.sorted()[1] - startup)) * 1e6 / Double(keys.count)
  }

  private static func script(queries: [String: String], keys: [RequestKeys]) -> String {
    var lines: [String] = []
    lines.reserveCapacity(keys.count * queries.count)
    let ordered = queries.sorted { $0.key < $1.key }.map(\.value)
    for key in keys {
      for sql in ordered {
        var text = sql
        for field in RequestKeys.Field.allCases {
          let literal = key[field].map { "'\($0)'" } ?? "NULL"
          text = text.replacingOccurrences(of: field.parameter, with: literal)
        }
        lines.append(text + ";")
      }
    }
    return lines.joined(separator: "\n") + "\n"
  }

  /// Seconds one `sqlite3 -readonly DB < script > /dev/null` takes.
  private static func time(database: String, script: URL) throws -> Double {
    let process = ChildProcess()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["sqlite3", "-readonly", database]
    process.standardInput = try FileHandle(forReadingFrom: script)
    process.standardOutput = FileHandle.nullDevice
    let start = ContinuousClock.now
    try process.run()
    process.waitUntilExit()
    let elapsed = ContinuousClock.now - start
    return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
  }
}
