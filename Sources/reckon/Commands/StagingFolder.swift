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
  /// The folders made for this run, deepest first: removed again if nothing lands in them.
  private let madeFolders: [String]
  private let lock = NSLock()
  private var moving = false

  /// What the hidden folders' names start with; the creating process's id follows.
  static let prefix = ".reckon-partial-"

  /// Creates a hidden folder in `folder` (creating `folder` if missing), after removing any a
  /// run that was killed left there (its process is gone).
  init(in folder: String, console: Console) throws {
    self.folder = folder
    self.console = console
    var missing: [String] = []
    var probe = URL(fileURLWithPath: folder).standardizedFileURL
    while !FileManager.default.fileExists(atPath: probe.path), probe.path != "/" {
      missing.append(probe.path)
      probe = probe.deletingLastPathComponent()
    }
    madeFolders = missing
    Self.removeAbandoned(in: folder)
    path = folder + "/" + Self.prefix + "\(getpid())-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
  }

  /// Moves each of `names` made in the hidden folder into the output folder, replacing a file
  /// of that name; a name not made (a database's -wal) is first removed there, so it cannot
  /// pair with the new database. Every target is checked before anything is moved, so a
  /// target that cannot be replaced (a folder of that name) leaves the output folder as it was.
  func moveIntoPlace(_ names: [String]) throws {
    lock.withLock { moving = true }
    let made = names.filter { FileManager.default.fileExists(atPath: path + "/" + $0) }
    for name in names {
      var isFolder: ObjCBool = false
      let target = folder + "/" + name
      if FileManager.default.fileExists(atPath: target, isDirectory: &isFolder),
        isFolder.boolValue
      {
        throw LocalFileError(path: target, errno: EISDIR, writing: true)
      }
    }
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

  /// Removes the hidden folder and what is left in it, and the folders this run made if
  /// nothing landed in them.
  func remove() {
    try? FileManager.default.removeItem(atPath: path)
    for made in madeFolders where rmdir(made) != 0 { break }
  }

  /// On Ctrl-C or SIGTERM: unless the files are already being moved into place (then they are
  /// finished first), removes the hidden folder, says nothing was written, and exits 130. The
  /// lock is held to the end, so the move cannot start in between.
  func abandon() {
    lock.lock()
    guard !moving else {
      lock.unlock()
      return
    }
    remove()
    console.error("reckon generate: stopped; nothing was written to \(folder)")
    exit(130)
  }

  /// Removes hidden folders of runs whose process is gone (killed, so it could not clean up).
  private static func removeAbandoned(in folder: String) {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
    for name in names where name.hasPrefix(prefix) {
      let pid = name.dropFirst(prefix.count).prefix { $0 != "-" }
      guard let pid = Int32(pid), kill(pid, 0) != 0, errno == ESRCH else { continue }
      try? FileManager.default.removeItem(atPath: folder + "/" + name)
    }
  }
}
