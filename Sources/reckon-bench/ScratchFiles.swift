import Foundation

/// Files a benchmark makes in the temporary directory (state databases, removed with their WAL
/// and shared-memory files; generated facts and requests), removed when it ends: a webhook run
/// leaves about a hundred megabytes, and runs repeated while tuning had filled gigabytes of
/// `/tmp`.
enum ScratchFiles {
  private static let lock = NSLock()
  nonisolated(unsafe) private static var paths: [String] = []

  /// A fresh path for a database named `prefix`-UUID.sqlite, removed by `removeAll()`.
  static func database(_ prefix: String) -> String { file(prefix, extension: "sqlite") }

  /// A fresh path for a file named `prefix`-UUID.`extension`, removed by `removeAll()`.
  static func file(_ prefix: String, extension suffix: String) -> String {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent(
      "\(prefix)-\(UUID().uuidString).\(suffix)"
    ).path
    lock.withLock { paths.append(path) }
    return path
  }

  /// Removes every file handed out, and a database's `-wal` and `-shm` files.
  static func removeAll() {
    let removing = lock.withLock {
      defer { paths.removeAll() }
      return paths
    }
    for path in removing {
      for suffix in ["", "-wal", "-shm"] {
        try? FileManager.default.removeItem(atPath: path + suffix)
      }
    }
  }
}
