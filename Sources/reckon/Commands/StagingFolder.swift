import Foundation
import ReckonAppStore

#if canImport(Glibc)
  import Glibc
#endif

/// A hidden folder inside an output folder where a command makes its files, moved into place
/// only once all are complete, so a stop or failure part way never leaves a set of files that
/// looks whole (a state database with a third of its history, say).
final class StagingFolder: @unchecked Sendable {
  /// The hidden folder's path.
  let path: String
  private let folder: String
  private let console: Console
  /// Whether the output folder was made for this run (removed again if nothing lands in it).
  private let madeFolder: Bool
  private let lock = NSLock()
  private var moving = false

  /// Creates a hidden folder in `folder` (creating `folder` if missing).
  init(in folder: String, console: Console) throws {
    self.folder = folder
    self.console = console
    madeFolder = !FileManager.default.fileExists(atPath: folder)
    path = folder + "/.reckon-partial-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
  }

  /// Moves each of `names` made in the hidden folder into the output folder, replacing a file
  /// of that name; a name not made (a database's -wal) is first removed there, so it cannot
  /// pair with the new database.
  func moveIntoPlace(_ names: [String]) throws {
    lock.withLock { moving = true }
    let made = names.filter { FileManager.default.fileExists(atPath: path + "/" + $0) }
    for name in names where !made.contains(name) {
      let target = folder + "/" + name
      if FileManager.default.fileExists(atPath: target) {
        try FileManager.default.removeItem(atPath: target)
      }
    }
    for name in made {
      guard rename(path + "/" + name, folder + "/" + name) == 0 else {
        throw LocalFileError(path: folder + "/" + name, errno: errno, writing: true)
      }
    }
  }

  /// Removes the hidden folder and what is left in it, and the output folder if this run made
  /// it and it is empty.
  func remove() {
    try? FileManager.default.removeItem(atPath: path)
    if madeFolder { rmdir(folder) }
  }

  /// On Ctrl-C or SIGTERM: unless the files are already being moved into place (then they are
  /// finished first), removes the hidden folder, says nothing was written, and exits 130.
  func abandon() {
    guard lock.withLock({ !moving }) else { return }
    remove()
    console.error("reckon generate: stopped; nothing was written to \(folder)")
    exit(130)
  }
}
