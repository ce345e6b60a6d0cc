import Foundation
import ReckonTestSupport
import Testing

/// `reckon-bench peers` compares figures only when ZEN's decision table chose the same rule as
/// the policy for every fact set, and says why it skipped ZEN when it cannot run it.
struct PeersBenchmarkTests {
  /// Whether the machine's python3 has zen-engine (pip install zen-engine).
  static let zenInstalled: Bool = {
    let process = ChildProcess()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["python3", "-c", "import zen"]
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    guard (try? process.run()) != nil else { return false }
    process.waitUntilExit()
    return process.terminationStatus == 0
  }()

  @Test func withoutZenReckonsFiguresArePrintedAndZenIsSkippedWithTheReason() async throws {
    // Python without its site-packages cannot import zen-engine, installed or not.
    let folder = TestScratch.folder.appendingPathComponent("peers-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let python = folder.appendingPathComponent("python-without-site").path
    try Data("#!/bin/sh\nexec python3 -S \"$@\"\n".utf8).write(to: URL(fileURLWithPath: python))
    try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: python)
    let run = try await BenchmarkUsageTests.run([
      "peers", "--count", "200", "--runs", "1", "--python", python,
    ])
    #expect(run.status == 0, "\(run.error)")
    #expect(run.output.contains("Reckon policy evaluation"))
    #expect(
      run.output.contains("ZEN skipped: zen-engine is not installed (pip install zen-engine)"),
      "\(run.output)")
    #expect(!run.output.contains("ratio"))
  }

  @Test(.enabled(if: zenInstalled, "zen-engine is not installed (pip install zen-engine)"))
  func zensDecisionTableChoosesThePolicysRuleForEveryFactSet() async throws {
    let run = try await BenchmarkUsageTests.run(["peers", "--count", "2000", "--runs", "1"])
    #expect(run.status == 0, "\(run.error)")
    #expect(
      run.output.contains("both engines chose the same rule for all 2000 fact sets"),
      "\(run.output)")
    #expect(run.output.contains("ratio: ZEN's own timer / Reckon evaluation"))
  }
}
