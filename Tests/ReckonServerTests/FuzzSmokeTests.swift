import Foundation
import ReckonTestSupport
import Testing

/// CI's short fuzz run: `Fuzz/smoke.sh` builds the three libFuzzer targets into `.build/fuzz`
/// (skipped when they are up to date) and runs each for a few seconds. A crash, a toolchain
/// without libFuzzer or a failed build fails this test with the script's output; it never passes
/// silently. `RECKON_FUZZ_SECONDS` sets the run per target (default 5).
@Suite struct FuzzSmokeTests {
  static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()
  static let seconds = Int(ProcessInfo.processInfo.environment["RECKON_FUZZ_SECONDS"] ?? "") ?? 5

  @Test func everyFuzzTargetBuildsAndRunsBrieflyWithoutACrash() async throws {
    let run = try await Self.shell(["Fuzz/smoke.sh", String(Self.seconds)])
    #expect(run.status == 0, "Fuzz/smoke.sh exited \(run.status):\n\(run.output)")
    for target in ["policy", "jws", "http"] {
      // libFuzzer's final statistics prove the target really ran (not a stub that exits 0).
      #expect(
        run.output.contains("fuzz target \(target): ok"),
        "no finished run of \(target):\n\(run.output)")
    }
  }

  /// What a finished command printed (standard output and error together) and its status.
  struct Run: Sendable {
    let status: Int32
    let output: String
  }

  /// Runs `arguments` with bash in the package root at low priority (so the build does not starve
  /// the other tests), waiting on a GCD thread, never on a cooperative-pool thread.
  static func shell(_ arguments: [String]) async throws -> Run {
    let process = ChildProcess()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["nice", "-n", "10", "bash"] + arguments
    process.currentDirectoryURL = packageRoot
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = pipe
    try process.run()
    let (status, output) = await ProcessOutput.readToEnd(process, pipe)
    return Run(status: status, output: output)
  }
}
