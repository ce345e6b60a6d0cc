import Foundation

/// A child process's output read to its end and its exit waited for, on a GCD thread: a blocking
/// read on one of Swift's cooperative threads (two on a 2-core machine) stalls every async test
/// and in-process server of the run until the child exits.
public enum ProcessOutput {
  /// What `process` wrote to `pipe`, once it has exited, and its termination status.
  public static func readToEnd(_ process: ChildProcess, _ pipe: Pipe) async -> (
    status: Int32, text: String
  ) {
    await withCheckedContinuation { continuation in
      DispatchQueue.global().async {
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        continuation.resume(
          returning: (process.terminationStatus, String(decoding: data, as: UTF8.self)))
      }
    }
  }

  /// What a run of `executable` printed to standard output and error, and its status; it is
  /// terminated if it still runs after `limit` seconds, so a test never waits without end.
  public static func run(
    _ executable: URL, _ arguments: [String], in folder: URL? = nil, limit: Double
  ) async throws -> (status: Int32, output: String, error: String) {
    let process = ChildProcess()
    process.executableURL = executable
    process.arguments = arguments
    if let folder { process.currentDirectoryURL = folder }
    let output = Pipe()
    let error = Pipe()
    process.standardOutput = output
    process.standardError = error
    try process.run()
    DispatchQueue.global().asyncAfter(deadline: .now() + limit) {
      if process.isRunning { process.terminate() }
    }
    async let printed = readToEnd(process, output)
    async let complained = readToEnd(process, error)
    let (status, text) = await printed
    return (status, text, await complained.text)
  }
}
