import Foundation

#if canImport(Glibc)
  import Glibc
#endif

extension LocalFile {
  /// Replaces the text of the existing file at `path` atomically: the bytes go to a temporary
  /// file in the same folder, which takes the old file's permission bits (and owner, where
  /// allowed) and is renamed over it, so a reader sees the old text or the new, never part of
  /// one. A symbolic link is followed: the file it points to is replaced and the link kept.
  public static func replaceContents(at path: String, with data: Data) throws(LocalFileError) {
    let target = try resolved(path)
    var status = stat()
    guard stat(target, &status) == 0 else { throw writeError(path) }
    let folder = URL(fileURLWithPath: target).deletingLastPathComponent().path
    let name = URL(fileURLWithPath: target).lastPathComponent
    var template = Array("\(folder)/.\(name).XXXXXX".utf8CString)
    let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
    guard descriptor >= 0 else { throw writeError(path) }
    let temporary = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    do throws(LocalFileError) {
      defer { close(descriptor) }
      // mkstemp makes the file 0600; the old file's bits are what its owner chose.
      guard fchmod(descriptor, status.st_mode & 0o7777) == 0 else { throw writeError(path) }
      // Keeps the owner when running as root; anyone else can only give the file away, so a
      // failure here leaves the file theirs, as an editor would.
      _ = fchown(descriptor, status.st_uid, status.st_gid)
      try writeAll(data, to: descriptor, path: path)
      guard fsync(descriptor) == 0 else { throw writeError(path) }
    } catch {
      unlink(temporary)
      throw error
    }
    guard rename(temporary, target) == 0 else {
      let error = writeError(path)
      unlink(temporary)
      throw error
    }
  }

  /// Creates a new file at `path` that only its owner can read, and writes `data` to it: made
  /// 0600 by `open` itself, so a key is never readable by others for a moment, whatever the
  /// umask. An existing file is left as it is and refused.
  public static func createPrivate(at path: String, with data: Data) throws(LocalFileError) {
    let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
    guard descriptor >= 0 else { throw writeError(path) }
    defer { close(descriptor) }
    do throws(LocalFileError) {
      try writeAll(data, to: descriptor, path: path)
      guard fsync(descriptor) == 0 else { throw writeError(path) }
    } catch {
      unlink(path)
      throw error
    }
  }

  /// The path with every symbolic link resolved, so the file itself is replaced, not the link.
  private static func resolved(_ path: String) throws(LocalFileError) -> String {
    guard let real = realpath(path, nil) else { throw writeError(path) }
    defer { free(real) }
    return String(cString: real)
  }

  private static func writeAll(_ data: Data, to descriptor: Int32, path: String)
    throws(LocalFileError)
  {
    var written = 0
    while written < data.count {
      let count = data.withUnsafeBytes { bytes in
        write(descriptor, bytes.baseAddress! + written, bytes.count - written)
      }
      if count < 0 {
        if errno == EINTR { continue }
        throw writeError(path)
      }
      written += count
    }
  }

  /// The error `errno` says, about replacing the file at `path`.
  private static func writeError(_ path: String) -> LocalFileError {
    LocalFileError(path: path, errno: errno, writing: true)
  }
}
