import Foundation

enum FileHandleOutput {
  static func standardError(_ text: String) {
    FileHandle.standardError.write(Data(text.utf8))
  }
}
