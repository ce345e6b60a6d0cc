#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

extension LocalFile {
  /// The permission bits of the file `path` leads to, nil when it cannot be read: a symbolic
  /// link's own bits are always 777 (Kubernetes and Docker mount secrets as links), and what is
  /// read is its target.
  public static func permissions(at path: String) -> UInt16? {
    var status = stat()
    guard stat(path, &status) == 0 else { return nil }
    return UInt16(truncatingIfNeeded: status.st_mode & 0o7777)
  }
}
