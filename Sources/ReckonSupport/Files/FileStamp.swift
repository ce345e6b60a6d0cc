import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// What identifies one version of a file: path, identity, size and modification time, read
/// through symbolic links (a Kubernetes ConfigMap swaps the link's target and keeps the name).
/// A missing or unreadable file has a stamp of its own, so its removal is a change too.
public struct FileStamp: Hashable, Sendable {
  /// The path as given.
  public let path: String
  let inode: UInt64
  let size: Int64
  let modifiedSeconds: Int
  let modifiedNanoseconds: Int

  /// The stamp of the file at `path` now.
  public init(_ path: String) {
    self.path = path
    var info = stat()
    guard stat(path, &info) == 0 else {
      (inode, size, modifiedSeconds, modifiedNanoseconds) = (0, -1, 0, 0)
      return
    }
    inode = UInt64(info.st_ino)
    size = Int64(info.st_size)
    #if canImport(Darwin)
      modifiedSeconds = Int(info.st_mtimespec.tv_sec)
      modifiedNanoseconds = Int(info.st_mtimespec.tv_nsec)
    #else
      modifiedSeconds = Int(info.st_mtim.tv_sec)
      modifiedNanoseconds = Int(info.st_mtim.tv_nsec)
    #endif
  }

  /// Whether the file was there to stamp.
  public var exists: Bool { size >= 0 }

  /// Which file the path named (its inode), whatever its contents; nil when there was none.
  /// A file moved into the path's place has another; one written in place keeps its own.
  public var identity: UInt64? { exists ? inode : nil }
}
