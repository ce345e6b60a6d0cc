import Foundation

/// A child process's output read to its end and its exit waited for, on a GCD thread: a blocking
/// read on one of Swift's cooperative threads (two on a 2-core machine) stalls every async test
/// and in-process server of the run until the child exits.
public enum ProcessOutput {
  /// What `process` wrote to `pipe`, once it has exited, and its termination status.
  public static func readToEnd(_ process: Process, _ pipe: Pipe) async -> (
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
}
