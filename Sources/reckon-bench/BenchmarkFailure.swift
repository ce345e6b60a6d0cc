import Foundation

/// Why a benchmark stopped, in a sentence: a file it could not read is named, with where the
/// benchmarks expect to run, since their default policies and examples are the repository's.
struct BenchmarkFailure: CustomStringConvertible {
  let error: any Error

  init(_ error: any Error) { self.error = error }

  var description: String {
    if let cocoa = error as? CocoaError,
      cocoa.code == .fileReadNoSuchFile || cocoa.code == .fileNoSuchFile,
      let path = cocoa.userInfo[NSFilePathErrorKey] as? String
    {
      let folder = FileManager.default.currentDirectoryPath
      let hint =
        path.hasPrefix("/")
        ? ""
        : "; the benchmarks read policies/ and examples/ from the repository: run reckon-bench from its root folder"
      return "no such file: \(path) (in \(folder))\(hint)"
    }
    return "\(error)"
  }
}
