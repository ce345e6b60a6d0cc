import Foundation
import Testing

@testable import ReckonTestSupport

/// The child processes tests start: their output, their end, and what they inherit.
struct ChildProcessTests {
  static func shell(_ script: String) -> ChildProcess {
    let child = ChildProcess()
    child.executableURL = URL(fileURLWithPath: "/bin/sh")
    child.arguments = ["-c", script]
    return child
  }

  /// Runs `child` to its exit and returns what it printed on standard output.
  static func printed(by child: ChildProcess) throws -> String {
    let output = Pipe()
    child.standardOutput = output
    try child.run()
    let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    child.waitUntilExit()
    return text
  }

  @Test func reportsTheExitCodeAndWhatEachStreamCarried() async throws {
    let child = Self.shell("echo printed; echo complained >&2; exit 3")
    let output = Pipe()
    let error = Pipe()
    child.standardOutput = output
    child.standardError = error
    try child.run()
    async let printed = ProcessOutput.readToEnd(child, output)
    async let complained = ProcessOutput.readToEnd(child, error)
    #expect(await printed.text == "printed\n")
    #expect(await complained.text == "complained\n")
    #expect(child.terminationStatus == 3)
    #expect(child.terminationReason == .exit)
    #expect(!child.isRunning)
  }

  @Test func aChildEndedByASignalReportsTheSignal() throws {
    let child = Self.shell("kill -TERM $$; sleep 5")
    try child.run()
    child.waitUntilExit()
    #expect(child.terminationReason == .uncaughtSignal)
    #expect(child.terminationStatus == SIGTERM)
  }

  @Test func manyThreadsWaitingAtOnceAllSeeTheSameEnd() async throws {
    let child = Self.shell("sleep 0.2; exit 7")
    try child.run()
    let statuses = await withTaskGroup(of: Int32.self) { group in
      for _ in 0..<8 {
        group.addTask {
          await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
              child.waitUntilExit()
              continuation.resume(returning: child.terminationStatus)
            }
          }
        }
      }
      return await group.reduce(into: []) { $0.append($1) }
    }
    #expect(statuses == Array(repeating: 7, count: 8))
  }

  @Test func theChildHoldsNoDescriptorOfThisProcessBeyondItsStreams() throws {
    let descriptor = open("/dev/null", O_RDONLY)
    #expect(descriptor > 2)
    defer { close(descriptor) }
    let child = Self.shell(
      "if [ -e /proc/self/fd/\(descriptor) ]; then echo open; else echo closed; fi")
    let text = try Self.printed(by: child)
    #expect(text == "closed\n")
  }

  @Test func theChildStartsWithNoSignalBlocked() throws {
    var blocked = sigset_t()
    sigemptyset(&blocked)
    sigaddset(&blocked, SIGINT)
    var previous = sigset_t()
    pthread_sigmask(SIG_BLOCK, &blocked, &previous)
    defer { pthread_sigmask(SIG_SETMASK, &previous, nil) }
    let child = Self.shell("grep SigBlk /proc/self/status")
    let text = try Self.printed(by: child)
    #expect(text.hasPrefix("SigBlk:\t0000000000000000"), "\(text)")
  }

  @Test func theChildGetsTheEnvironmentAndFolderItWasGiven() throws {
    let child = Self.shell("echo \"$RECKON_CHILD_SETTING\"; pwd")
    child.environment = ["RECKON_CHILD_SETTING": "given", "PATH": "/usr/bin:/bin"]
    child.currentDirectoryURL = URL(fileURLWithPath: "/tmp")
    let text = try Self.printed(by: child)
    #expect(text == "given\n/tmp\n")
  }

  @Test func aMissingProgramIsALaunchErrorNamingIt() {
    let child = ChildProcess()
    child.executableURL = URL(fileURLWithPath: "/nonexistent/reckon-child")
    #expect(
      throws: ChildProcess.LaunchError.spawn(
        path: "/nonexistent/reckon-child", step: "posix_spawn", errno: ENOENT)
    ) { try child.run() }
    #expect(!child.isRunning)
  }

  @Test func theNullDeviceGivesTheChildAnEmptyInputAndASilentOutput() throws {
    let child = Self.shell("cat; echo discarded; wc -c < /proc/self/fd/0 >&2")
    child.standardInput = FileHandle.nullDevice
    child.standardOutput = FileHandle.nullDevice
    let error = Pipe()
    child.standardError = error
    try child.run()
    let text = String(decoding: error.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    child.waitUntilExit()
    #expect(child.terminationStatus == 0)
    #expect(text.trimmingCharacters(in: .whitespacesAndNewlines) == "0")
  }
}
