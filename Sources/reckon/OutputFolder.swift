import Foundation
import ReckonAppStore
import ReckonSupport

/// `--out FOLDER` of a command that writes files into a folder it creates if missing: checked
/// before anything is written, and a failure to write there said as a sentence naming the path
/// and the reason rather than as Foundation's error codes.
enum OutputFolder {
  /// Why the folder cannot be written.
  enum Refusal: Error, Hashable, CustomStringConvertible {
    /// `file`, the path or a folder above it, is a file.
    case isAFile(path: String, file: String)
    /// Creating or writing in the folder failed; `reason` in plain words.
    case cannotWrite(path: String, reason: String)

    var description: String {
      switch self {
      case .isAFile(let path, let file) where path == file:
        "--out \(path) is a file, not a folder; give the folder to write the generated files into (it is created if missing)"
      case .isAFile(let path, let file):
        "--out \(path): \(file) is a file, not a folder"
      case .cannotWrite(let path, let reason):
        "--out \(path): cannot write the generated files there: \(reason)"
      }
    }
  }

  /// Refuses `path` when it, or the nearest folder above it that exists, is a file, or that
  /// folder cannot be written to.
  static func check(_ path: String) throws(Refusal) {
    var probe = path
    while true {
      var isFolder: ObjCBool = false
      if FileManager.default.fileExists(atPath: probe, isDirectory: &isFolder) {
        guard isFolder.boolValue else { throw .isAFile(path: path, file: probe) }
        guard access(probe, W_OK) == 0 else {
          throw .cannotWrite(
            path: path,
            reason: reason(LocalFileError(path: probe, errno: errno, writing: true), path))
        }
        return
      }
      // As written, so a message names the path the user gave. Not NSString's
      // deletingLastPathComponent: on Linux it stops the process for a one-word path ("g").
      guard let slash = probe.lastIndex(of: "/") else {
        guard probe != "." else { return }
        probe = "."
        continue
      }
      let parent = slash == probe.startIndex ? "/" : String(probe[..<slash])
      guard parent != probe else { return }
      probe = parent
    }
  }

  /// `error`, met while writing into `path`, as a `Refusal` when it is a file error the system
  /// numbered; other errors (a database's, say) already say what and where, and are returned.
  static func failure(_ path: String, _ error: any Error) -> any Error {
    let bridged = error as NSError
    // On Linux the underlying error may be held as a Swift error rather than an NSError.
    let underlying = (bridged.userInfo[NSUnderlyingErrorKey] as? any Error).map { $0 as NSError }
    let posix = [bridged, underlying].compactMap { $0 }.first { $0.domain == NSPOSIXErrorDomain }
    guard let posix else { return error }
    let file = bridged.userInfo[NSFilePathErrorKey] as? String ?? path
    return Refusal.cannotWrite(
      path: path,
      reason: reason(LocalFileError(path: file, errno: Int32(posix.code), writing: true), path))
  }

  /// The problem in `LocalFileError`'s words, naming the file when it is not `folder` itself:
  /// `permission denied`, `FILE: no such file or folder`.
  private static func reason(_ error: LocalFileError, _ folder: String) -> String {
    error.path == folder ? error.words : "\(error.path): \(error.words)"
  }
}
