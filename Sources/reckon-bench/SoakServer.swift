import Foundation
import ReckonTestSupport

/// `reckon serve` as a child process, with its resident memory read from /proc.
final class SoakServer: @unchecked Sendable {
  let process = ChildProcess()
  let port: Int
  var pid: Int32 { process.processIdentifier }

  init(binary: String, workspace: SoakWorkspace) throws {
    let log = workspace.folder.appendingPathComponent("serve.log")
    _ = FileManager.default.createFile(atPath: log.path, contents: nil)
    process.executableURL = URL(fileURLWithPath: binary)
    process.arguments = ["serve", "--config", workspace.path("reckon.json")]
    process.standardOutput = FileHandle.nullDevice
    process.standardError = try FileHandle(forWritingTo: log)
    try process.run()
    var found: Int?
    for _ in 0..<200 where found == nil {
      usleep(100_000)
      let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
      let line = text.split(separator: "\n").first { $0.contains(#""event":"listening""#) }
      if let line, let address = line.range(of: "127.0.0.1:") {
        found = Int(line[address.upperBound...].prefix { $0.isNumber })
      }
    }
    guard let found else {
      process.terminate()
      throw SoakError.serverDidNotStart((try? String(contentsOf: log, encoding: .utf8)) ?? "")
    }
    port = found
  }

  /// Resident set size now, in MB (VmRSS).
  func residentMegabytes() -> Double { statusField("VmRSS") }

  /// The anonymous (heap and stacks) part of the resident set, in MB (RssAnon); the rest is
  /// mostly shared library code, which other processes share.
  func anonymousMegabytes() -> Double { statusField("RssAnon") }

  /// The largest resident set size so far, in MB (VmHWM).
  func peakMegabytes() -> Double { statusField("VmHWM") }

  func stop() {
    guard process.isRunning else { return }
    process.terminate()
    process.waitUntilExit()
  }

  private func statusField(_ name: String) -> Double {
    let status = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
    let line = status.split(separator: "\n").first { $0.hasPrefix(name + ":") } ?? ""
    let kilobytes = line.split(separator: " ").compactMap { Double($0) }.first ?? 0
    return kilobytes / 1_024
  }
}
