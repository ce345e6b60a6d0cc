import Foundation

enum FileHandleOutput {
  /// Writes `text` to standard error; text that cannot be written (a reader gone, with SIGPIPE
  /// ignored, or a full disk) is dropped, where `FileHandle.write(_:)` would trap.
  static func standardError(_ text: String) {
    try? FileHandle.standardError.write(contentsOf: Data(text.utf8))
  }
}
