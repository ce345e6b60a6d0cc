import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Reads whole local files for every command and library, so that each failure names the path
/// and says plainly what is wrong instead of passing on Foundation's `NSCocoaErrorDomain` codes.
public enum LocalFile {
  /// The JSON text of the file at `path`, without the UTF-8 byte order mark some editors save
  /// first ("UTF-8 with BOM", as Windows Notepad does), which RFC 8259 lets a reader ignore:
  /// a person's configuration, facts or request file is read like a policy file, BOM or not.
  public static func json(at path: String, limit: FileSizeLimit = .configuration)
    throws(LocalFileError) -> Data
  {
    let data = try data(at: path, limit: limit)
    guard data.starts(with: [0xEF, 0xBB, 0xBF]) else { return data }
    return Data(data.dropFirst(3))
  }

  /// The bytes of the regular file at `path`, refused when it holds more than `limit`: the
  /// file's size is checked before anything is read, and the reading stops at the limit too, in
  /// case the file grows meanwhile.
  public static func data(at path: String, limit: FileSizeLimit = .other) throws(LocalFileError)
    -> Data
  {
    let (descriptor, size) = try openForReading(path)
    defer { close(descriptor) }
    guard size <= limit.bytes else {
      throw LocalFileError(path: path, problem: .tooLarge(size: size, limit: limit))
    }
    var data = Data(capacity: max(size, 0))
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    while true {
      let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
      if count == 0 { return data }
      if count < 0 {
        if errno == EINTR { continue }
        throw LocalFileError(path: path, errno: errno)
      }
      guard data.count + count <= limit.bytes else {
        throw LocalFileError(path: path, problem: .tooLarge(size: data.count + count, limit: limit))
      }
      data.append(contentsOf: chunk[0..<count])
    }
  }

  /// The regular file at `path` as UTF-8 text, refused when it holds more than `limit`.
  public static func text(at path: String, limit: FileSizeLimit = .other) throws(LocalFileError)
    -> String
  {
    guard let text = String(data: try data(at: path, limit: limit), encoding: .utf8) else {
      throw LocalFileError(path: path, problem: .notText)
    }
    return text
  }

  /// Opens the regular file at `path` for reading and returns its descriptor, which the caller
  /// closes, and its size. Anything else is refused before a byte is read: a folder (`open`
  /// accepts one and only a later `read` fails, saying "No such device"), and a FIFO, a device
  /// or a socket, whose reads may never end (`/dev/zero`) or never begin (a FIFO without a
  /// writer). The open itself does not wait for a FIFO's writer.
  public static func openForReading(_ path: String) throws(LocalFileError) -> (
    descriptor: Int32, size: Int
  ) {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
    guard descriptor >= 0 else { throw LocalFileError(path: path, errno: errno) }
    var status = stat()
    guard fstat(descriptor, &status) == 0 else {
      let error = LocalFileError(path: path, errno: errno)
      close(descriptor)
      throw error
    }
    if let kind = LocalFile.nonRegularKind(status.st_mode) {
      close(descriptor)
      throw LocalFileError(path: path, problem: kind == "a folder" ? .isFolder : .notRegular(kind))
    }
    // Reads of a regular file never wait anyway; cleared so a reader's loop need not know.
    _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) & ~O_NONBLOCK)
    return (descriptor, Int(status.st_size))
  }

  /// Refuses a path that exists and is not a regular file (following symbolic links), before a
  /// library opens it itself (SQLite would wait forever on a FIFO's first read); a missing path
  /// passes, for the library to create or refuse.
  public static func refuseIfNotRegular(_ path: String) throws(LocalFileError) {
    var status = stat()
    guard stat(path, &status) == 0, let kind = nonRegularKind(status.st_mode) else { return }
    throw LocalFileError(path: path, problem: kind == "a folder" ? .isFolder : .notRegular(kind))
  }

  /// What a file of `mode` is, in words, when it is not a regular file.
  static func nonRegularKind(_ mode: mode_t) -> String? {
    switch mode & S_IFMT {
    case S_IFREG: nil
    case S_IFDIR: "a folder"
    case S_IFIFO: "a FIFO (named pipe)"
    case S_IFCHR: "a character device"
    case S_IFBLK: "a block device"
    case S_IFSOCK: "a socket"
    default: "not a regular file"
    }
  }
}

/// Why a local file could not be read or written: the path and the problem in plain words.
public struct LocalFileError: Error, Hashable, Sendable, CustomStringConvertible {
  /// What is wrong with the file.
  public enum Problem: Hashable, Sendable {
    case noSuchFile
    case isFolder
    case permissionDenied
    case notText
    /// Something other than a regular file or a folder, in words: `a FIFO (named pipe)`.
    case notRegular(String)
    /// Larger than `limit` allows: `size` bytes, or at least that many.
    case tooLarge(size: Int, limit: FileSizeLimit)
    /// Another system error, with the system's wording.
    case system(String)
  }

  /// The path as given.
  public let path: String
  /// What is wrong.
  public let problem: Problem
  /// Whether the file was being written (created, replaced, locked) rather than read.
  public let writing: Bool

  /// An error about `path`, met while reading it unless `writing`.
  public init(path: String, problem: Problem, writing: Bool = false) {
    self.path = path
    self.problem = problem
    self.writing = writing
  }

  /// An error about `path` from the system's error number (`errno`), in the same plain terms,
  /// met while reading it unless `writing`.
  public init(path: String, errno code: Int32, writing: Bool = false) {
    let problem: Problem =
      switch code {
      // ENOTDIR: a part of the path is a file, so nothing exists at the path.
      case ENOENT, ENOTDIR: .noSuchFile
      case EACCES, EPERM: .permissionDenied
      case EISDIR: .isFolder
      default: .system(String(cString: strerror(code)).lowercased())
      }
    self.init(path: path, problem: problem, writing: writing)
  }

  /// The problem alone, for a sentence that says itself what was being done: `permission
  /// denied`, `no such file` (`no such file or folder` when writing, as the folder may be missing).
  public var words: String {
    switch problem {
    case .noSuchFile: writing ? "no such file or folder" : "no such file"
    case .isFolder: "is a folder, not a file"
    case .permissionDenied: "permission denied"
    case .notText: "is not UTF-8 text"
    case .notRegular(let kind): "is \(kind), not a regular file"
    case .tooLarge(let size, let limit):
      "is \(FileSizeLimit.size(size)), over \(limit)"
    case .system(let message): message
    }
  }

  /// The problem without the path, for messages that name the path themselves: `no such file`,
  /// `cannot be read: permission denied`, `cannot be written: no space left on device`.
  public var reason: String {
    switch problem {
    case .noSuchFile, .isFolder, .notText, .notRegular, .tooLarge: words
    case .permissionDenied, .system: (writing ? "cannot be written: " : "cannot be read: ") + words
    }
  }

  /// The path and the problem, e.g. `policies: is a folder, not a file`.
  public var description: String { "\(path): \(reason)" }
}
