import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// A hidden folder inside an output folder where a command makes its files, moved into place
/// only once all are complete, so a stop or failure part way never leaves a set of files that
/// looks whole (a state database with a third of its history, say).
public final class StagingFolder: @unchecked Sendable {
  /// The hidden folder's path.
  public let path: String
  private let folder: String
  /// The folders made for this run, deepest first: removed again if nothing lands in them.
  private let madeFolders: [String]
  /// A lock file inside the hidden folder, held while this run lives: a later run removes a
  /// hidden folder only when it can take its lock, so never one of a run still going (even in
  /// another process namespace, where its process id means nothing).
  private var liveness: Int32 = -1
  private let lock = NSLock()
  private var moving = false

  /// What the hidden folders' names start with; the creating process's id follows.
  static let prefix = ".reckon-partial-"

  /// Creates a hidden folder in `folder` (creating `folder` if missing), after removing any a
  /// run that was killed left there (its process is gone).
  public init(in folder: String) throws {
    self.folder = folder
    madeFolders = Self.missingFolders(along: folder)
    Self.removeAbandoned(in: folder)
    path = folder + "/" + Self.prefix + "\(getpid())-\(UUID().uuidString)"
    // Made under a name of its own and locked before it takes its name, so a run sweeping the
    // folder never finds it unlocked while this run lives.
    let unnamed = path + Self.unnamedSuffix
    try FileManager.default.createDirectory(atPath: unnamed, withIntermediateDirectories: true)
    liveness = open(unnamed + "/" + Self.lockName, O_CREAT | O_RDWR | O_CLOEXEC, 0o600)
    if liveness >= 0 { _ = flock(liveness, LOCK_EX) }
    guard rename(unnamed, path) == 0 else {
      throw LocalFileError(path: path, errno: errno, writing: true)
    }
  }

  /// Each folder along `folder` as written (`q` in `q/../r`, which creating the path makes too)
  /// that is missing now, deepest first. A part is judged as the kernel resolves it (through
  /// symbolic links) while the path exists; below the first missing part, where the kernel
  /// cannot go, `..` takes back the missing part it follows.
  private static func missingFolders(along folder: String) -> [String] {
    var missing: [String] = []
    var prefix = folder.hasPrefix("/") ? "/" : ""
    // Below the first missing part: the deepest existing folder, resolved, and the parts after.
    var base: URL? = nil
    var pending: [String] = []
    for part in folder.split(separator: "/").map(String.init) {
      prefix += (prefix.isEmpty || prefix.hasSuffix("/") ? "" : "/") + part
      if base == nil {
        if FileManager.default.fileExists(atPath: prefix) { continue }
        base = URL(fileURLWithPath: prefix).deletingLastPathComponent().resolvingSymlinksInPath()
      }
      if part == "." { continue }
      if part == ".." {
        if !pending.isEmpty { pending.removeLast() } else { base?.deleteLastPathComponent() }
        continue
      }
      pending.append(part)
      let resolved = pending.reduce(base!) { $0.appendingPathComponent($1) }
      if !FileManager.default.fileExists(atPath: resolved.path) { missing.insert(prefix, at: 0) }
    }
    return missing
  }

  /// Whether `name` is a hidden folder's name as this type makes them: the prefix, a process id,
  /// a UUID, and `.new` until locked. Nothing else of that prefix is touched.
  private static func isHiddenFolderName(_ name: String) -> Bool {
    var rest = name.dropFirst(prefix.count)
    guard name.hasPrefix(prefix) else { return false }
    if rest.hasSuffix(unnamedSuffix) { rest = rest.dropLast(unnamedSuffix.count) }
    guard let dash = rest.firstIndex(of: "-"), !rest[..<dash].isEmpty,
      rest[..<dash].allSatisfy(\.isASCII), rest[..<dash].allSatisfy(\.isNumber)
    else { return false }
    return UUID(uuidString: String(rest[rest.index(after: dash)...])) != nil
  }

  /// What a hidden folder's name ends with until its lock is taken.
  private static let unnamedSuffix = ".new"

  /// How long a hidden folder without a lock to judge it by (made by an older Reckon, or killed
  /// before it took its lock) is left alone before it counts as abandoned.
  private static let unlockedGrace: TimeInterval = 60

  deinit { if liveness >= 0 { close(liveness) } }

  /// The lock file inside a hidden folder.
  private static let lockName = ".lock"

  /// Why the files could not be moved into place.
  public struct Appeared: Error, CustomStringConvertible {
    /// The file that appeared.
    public let path: String
    /// What happened, and what to give to replace it.
    public var description: String {
      "\(path) appeared while the files were made (another run into the folder?); nothing was replaced: give --force to replace it"
    }
  }

  /// Moves each of `names` made in the hidden folder into the output folder. With `replace`,
  /// a file of that name is replaced, and a name not made (a database's -wal) is first removed
  /// there, so it cannot pair with the new database; without, a file that has appeared since
  /// the start (another run's) stops the move and what was moved is taken back. Every target is
  /// checked before anything is moved, so a target that cannot be replaced (a folder of that
  /// name) leaves the output folder as it was.
  public func moveIntoPlace(_ names: [String], replace: Bool) throws {
    lock.withLock { moving = true }
    // One run's set moves in at a time: two runs with --force into one folder would otherwise
    // leave some files of each.
    let folderLock = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    if folderLock >= 0 { _ = flock(folderLock, LOCK_EX) }
    defer { if folderLock >= 0 { close(folderLock) } }
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
    guard replace else { return try linkIntoPlace(made) }
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

  /// Links each made file in under its name, which fails rather than replace a file there;
  /// on a failure the links made are taken back. On a file system without hard links (FAT),
  /// a file is moved in once it is found missing, which the folder lock keeps other runs of
  /// Reckon from racing.
  private func linkIntoPlace(_ made: [String]) throws {
    var placed: [String] = []
    for name in made {
      let target = folder + "/" + name
      if link(path + "/" + name, target) == 0 {
        placed.append(target)
        continue
      }
      let code = errno
      let unlinkable = [EPERM, ENOTSUP, EOPNOTSUPP, EXDEV, EMLINK].contains(code)
      if unlinkable, !FileManager.default.fileExists(atPath: target),
        rename(path + "/" + name, target) == 0
      {
        placed.append(target)
        continue
      }
      for done in placed { unlink(done) }
      if code == EEXIST || unlinkable && FileManager.default.fileExists(atPath: target) {
        throw Appeared(path: target)
      }
      throw LocalFileError(path: target, errno: code, writing: true)
    }
  }

  /// Removes the hidden folder and what is left in it, and the folders this run made if
  /// nothing landed in them.
  public func remove() {
    try? FileManager.default.removeItem(atPath: path)
    for made in madeFolders { rmdir(made) }
  }

  /// On Ctrl-C or SIGTERM: unless the files are already being moved into place (then they are
  /// finished first, and this returns false), removes the hidden folder and returns true. The
  /// lock stays held after that, so no move starts before the caller exits.
  public func abandon() -> Bool {
    lock.lock()
    guard !moving else {
      lock.unlock()
      return false
    }
    remove()
    return true
  }

  /// Removes hidden folders of runs that are gone (killed, so they could not clean up): those
  /// whose lock can be taken, and those with no lock to judge by once a minute old.
  private static func removeAbandoned(in folder: String) {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
    for name in names where isHiddenFolderName(name) {
      let hidden = folder + "/" + name
      var isFolder: ObjCBool = false
      guard FileManager.default.fileExists(atPath: hidden, isDirectory: &isFolder),
        isFolder.boolValue
      else { continue }
      let descriptor = open(hidden + "/" + lockName, O_RDWR | O_CLOEXEC)
      defer { if descriptor >= 0 { close(descriptor) } }
      if descriptor >= 0, !name.hasSuffix(unnamedSuffix) {
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else { continue }
      } else {
        if descriptor >= 0, flock(descriptor, LOCK_EX | LOCK_NB) != 0 { continue }
        let modified =
          (try? FileManager.default.attributesOfItem(atPath: hidden)[.modificationDate]) as? Date
        guard let modified, Date().timeIntervalSince(modified) > unlockedGrace else { continue }
      }
      try? FileManager.default.removeItem(atPath: hidden)
    }
  }
}
