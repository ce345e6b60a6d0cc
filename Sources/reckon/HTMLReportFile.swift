import Foundation
import ReckonTools

/// Where `--html PATH` writes its report, checked before the run: never one of the command's
/// inputs, never an existing file that is not an HTML report Reckon wrote, never a folder, and
/// in a folder that can be written, so a long run does not end by destroying data or failing to save its result.
struct HTMLReportFile {
  /// The path as given.
  let path: String

  /// Why `--html PATH` was refused.
  enum Refusal: Error, Hashable, CustomStringConvertible {
    case isAnInput(path: String, option: String)
    case notAnHTMLReport(path: String)
    case isAFolder(path: String)
    case noFolder(path: String, folder: String)
    case folderNotWritable(path: String, folder: String)

    var description: String {
      switch self {
      case .isAnInput(let path, let option):
        "--html \(path) is the file given to \(option); the report would overwrite it. Write the report to another file"
      case .notAnHTMLReport(let path):
        "--html \(path) exists and is not an HTML report Reckon wrote; refusing to overwrite it"
      case .isAFolder(let path):
        "--html \(path) is a folder; give the report's file name"
      case .noFolder(let path, let folder):
        "--html \(path): the folder \(folder) does not exist"
      case .folderNotWritable(let path, let folder):
        "--html \(path): the folder \(folder) cannot be written to"
      }
    }
  }

  /// Checks `path` against the command's `inputs` (option name → path, for the message).
  init(_ path: String, inputs: [(option: String, path: String)]) throws(Refusal) {
    self.path = path
    guard !path.hasSuffix("/") else { throw .isAFolder(path: path) }
    let output = URL(fileURLWithPath: path)
    var isFolder: ObjCBool = false
    if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) {
      guard !isFolder.boolValue else { throw .isAFolder(path: path) }
      // Identity, not spelling: `./x`, `../dir/x`, a symlink and a hard link all name one file.
      if let input = inputs.first(where: { Self.sameFile(path, $0.path) }) {
        throw .isAnInput(path: path, option: input.option)
      }
      guard Self.isReckonReport(path) else { throw .notAnHTMLReport(path: path) }
    }
    let folder = output.deletingLastPathComponent().path
    var folderIsFolder: ObjCBool = false
    guard FileManager.default.fileExists(atPath: folder, isDirectory: &folderIsFolder),
      folderIsFolder.boolValue
    else { throw .noFolder(path: path, folder: folder) }
    guard access(folder, W_OK) == 0 else {
      throw .folderNotWritable(path: path, folder: folder)
    }
  }

  /// Writes the report.
  func write(_ html: String) throws {
    try Data(html.utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
  }

  private static func sameFile(_ first: String, _ second: String) -> Bool {
    var a = stat()
    var b = stat()
    guard stat(first, &a) == 0, stat(second, &b) == 0 else { return false }
    return a.st_dev == b.st_dev && a.st_ino == b.st_ino
  }

  /// Whether the file begins as every page Reckon writes does (`HTMLReport.pageStart`): any
  /// other HTML file is somebody's page.
  private static func isReckonReport(_ path: String) -> Bool {
    guard let handle = FileHandle(forReadingAtPath: path) else { return false }
    defer { try? handle.close() }
    let start = Data(HTMLReport.pageStart.utf8)
    return (try? handle.read(upToCount: start.count)) == start
  }
}
