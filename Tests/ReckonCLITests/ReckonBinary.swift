import Foundation
import ReckonTestSupport

/// Runs the `reckon` executable that `swift test` built, from the package root, and captures what
/// it prints.
enum ReckonBinary {
  /// The package root, found from this file's path.
  static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent()
    .deletingLastPathComponent()

  /// What one run printed and returned.
  struct Run {
    let status: Int32
    let standardOutput: String
    let standardError: String

    /// The run as a golden file holds it.
    var transcript: String {
      "exit status: \(status)\n--- stdout\n\(standardOutput)--- stderr\n\(standardError)"
    }
  }

  /// Why the binary could not be run.
  enum Failure: Error, CustomStringConvertible {
    case notBuilt(searched: [String])

    var description: String {
      switch self {
      case .notBuilt(let searched):
        "no reckon executable found; looked in: \(searched.joined(separator: ", "))"
      }
    }
  }

  /// The executable: $RECKON_BINARY, else `reckon` beside the test bundle (the same build folder).
  static func location() throws -> URL {
    var candidates: [URL] = []
    if let path = ProcessInfo.processInfo.environment["RECKON_BINARY"] {
      candidates.append(URL(fileURLWithPath: path))
    }
    var folder = Bundle.main.bundleURL
    for _ in 0..<3 {
      candidates.append(folder.appendingPathComponent("reckon"))
      folder = folder.deletingLastPathComponent()
    }
    let runner = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
    candidates.append(runner.deletingLastPathComponent().appendingPathComponent("reckon"))
    candidates.append(
      runner.deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent(
        "reckon"))
    guard
      let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0.path) })
    else {
      throw Failure.notBuilt(searched: candidates.map(\.path))
    }
    return found
  }

  /// Runs `reckon ARGUMENTS` in `folder` (by default the package root), waiting on a GCD thread
  /// so a blocked cooperative pool cannot starve the other tests' servers.
  static func run(
    _ arguments: [String], in folder: URL = packageRoot, executable: String? = nil
  ) async throws -> Run {
    let process = ChildProcess()
    process.executableURL = try executable.map(URL.init(fileURLWithPath:)) ?? location()
    process.arguments = arguments
    process.currentDirectoryURL = folder
    let output = Pipe()
    let error = Pipe()
    process.standardOutput = output
    process.standardError = error
    try process.run()
    return await withCheckedContinuation { continuation in
      DispatchQueue.global().async {
        // Both pipes drain at once so a chatty stderr cannot fill its pipe and stall the child.
        let errData = StandardErrorBox()
        let drained = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
          errData.data = error.fileHandleForReading.readDataToEndOfFile()
          drained.signal()
        }
        let outData = output.fileHandleForReading.readDataToEndOfFile()
        drained.wait()
        process.waitUntilExit()
        continuation.resume(
          returning: Run(
            status: process.terminationStatus,
            standardOutput: String(decoding: outData, as: UTF8.self),
            standardError: String(decoding: errData.data, as: UTF8.self)))
      }
    }
  }
}

/// Standard error read on another thread, handed over after the semaphore.
private final class StandardErrorBox: @unchecked Sendable {
  var data = Data()
}
