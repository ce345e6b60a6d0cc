import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// One folder per test process for the files tests write (state databases with their `-wal` and
/// `-shm`, policies, keys, requests files), removed when the process exits; folders that a
/// crashed or killed run left behind are removed by the next run.
public enum TestScratch {
  /// Names of the folders: the prefix, then the process id.
  static let prefix = "reckon-tests-"

  /// The process's folder under the system's temporary folder, made on first use.
  public static let folder: URL = {
    let temporary = FileManager.default.temporaryDirectory
    removeLeftovers(in: temporary)
    let folder = temporary.appendingPathComponent(prefix + String(getpid()), isDirectory: true)
    try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    atexit { try? FileManager.default.removeItem(at: TestScratch.folder) }
    return folder
  }()

  /// Removes the folders in `temporary` of test processes that no longer run; returns how many.
  @discardableResult
  static func removeLeftovers(in temporary: URL) -> Int {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: temporary.path)) ?? []
    var removed = 0
    for name in names where name.hasPrefix(prefix) {
      guard let pid = pid_t(name.dropFirst(prefix.count)), pid > 0, pid != getpid() else {
        continue
      }
      // Signal 0 only asks whether the process exists; ESRCH says it does not.
      guard kill(pid, 0) == -1, errno == ESRCH else { continue }
      if (try? FileManager.default.removeItem(at: temporary.appendingPathComponent(name))) != nil {
        removed += 1
      }
    }
    return removed
  }
}
