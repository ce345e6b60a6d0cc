import Foundation
import ReckonTestSupport
import Testing

/// `reckon generate` never replaces a user's files unless told to, and checks every option before
/// it writes anything.
struct GenerateCommandTests {
  static func emptyFolder() throws -> String {
    let folder = TestScratch.folder.appendingPathComponent("reckon-gen-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    return folder
  }

  /// A file generate writes, already there with the user's own content.
  @Test(arguments: ["reckon.json", "facts.sqlite", "requests.jsonl", "reckon-state.sqlite"])
  func anExistingFileIsRefusedByNameAndKept(_ name: String) async throws {
    let folder = try Self.emptyFolder()
    let mine = Data("the user's own \(name)\n".utf8)
    try mine.write(to: URL(fileURLWithPath: folder + "/" + name))
    try mine.write(to: URL(fileURLWithPath: folder + "/facts.sqlite-wal"))
    let run = try await ReckonBinary.run([
      "generate", "--out", folder, "--count", "5", "--state", "yes",
    ])
    #expect(run.status != 0)
    #expect(run.standardError.contains("\(folder)/\(name)"), "\(run.standardError)")
    #expect(run.standardError.contains("--force"))
    #expect(try Data(contentsOf: URL(fileURLWithPath: folder + "/" + name)) == mine)
    #expect(try Data(contentsOf: URL(fileURLWithPath: folder + "/facts.sqlite-wal")) == mine)
    let written = try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
    #expect(written == [name, "facts.sqlite-wal"].sorted())
  }

  /// A one-word folder relative to where generate runs (`--out g`): the check of where it may
  /// write stopped the process (Foundation's deletingLastPathComponent on Linux).
  @Test(arguments: ["g", "g/", "./g", "out/g"])
  func aRelativeOutputFolderIsWrittenInTheWorkingFolder(_ out: String) async throws {
    let folder = try Self.emptyFolder()
    if out.hasPrefix("out/") {
      try FileManager.default.createDirectory(
        atPath: folder + "/out", withIntermediateDirectories: true)
    }
    let run = try await ReckonBinary.run(
      [
        "generate", "--out", out, "--count", "5", "--state", "no", "--policy",
        ReckonBinary.packageRoot.appendingPathComponent("policies/targeted.policy").path,
      ], in: URL(fileURLWithPath: folder))
    #expect(run.status == 0, "\(run.standardError)")
    #expect(
      FileManager.default.fileExists(atPath: folder + "/" + out + "/requests.jsonl"),
      "\(run.standardOutput)")
  }

  @Test func theCountItWroteIsGroupedInThousandsAsTheReportsAre() async throws {
    let folder = try Self.emptyFolder()
    let run = try await ReckonBinary.run([
      "generate", "--out", folder, "--count", "1000", "--state", "no", "--force",
    ])
    #expect(run.status == 0, "\(run.standardError)")
    #expect(run.standardOutput.hasPrefix("wrote 1,000 requests to "), "\(run.standardOutput)")
  }

  @Test func forceReplacesTheFiles() async throws {
    let folder = try Self.emptyFolder()
    try Data("old".utf8).write(to: URL(fileURLWithPath: folder + "/reckon.json"))
    let run = try await ReckonBinary.run([
      "generate", "--out", folder, "--count", "5", "--state", "yes", "--force",
    ])
    #expect(run.status == 0, "\(run.standardError)")
    #expect(
      try String(contentsOfFile: folder + "/reckon.json", encoding: .utf8).contains("\"apps\""))
    #expect(FileManager.default.fileExists(atPath: folder + "/reckon-state.sqlite"))
  }

  @Test(arguments: ["foo", "true", "1", ""])
  func stateTakesOnlyYesOrNo(_ value: String) async throws {
    let folder = try Self.emptyFolder()
    let run = try await ReckonBinary.run([
      "generate", "--out", folder, "--count", "5", "--state=\(value)",
    ])
    #expect(run.status == 2)
    let said =
      value.isEmpty
      ? "--state was given an empty value" : "--state must be yes or no, not '\(value)'"
    #expect(run.standardError.contains(said), "\(run.standardError)")
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder).isEmpty)
  }

  @Test func aPolicyThatCannotBeUsedStopsGenerateBeforeItWritesAnything() async throws {
    let folder = try Self.emptyFolder()
    for policy in ["Tests/ReckonCLITests/Fixtures/misspelled.policy", "policies/missing.policy"] {
      let run = try await ReckonBinary.run([
        "generate", "--out", folder, "--count", "5", "--state", "yes", "--policy", policy,
      ])
      #expect(run.status != 0)
      #expect(run.standardError.contains(policy), "\(run.standardError)")
      #expect(try FileManager.default.contentsOfDirectory(atPath: folder).isEmpty)
    }
  }

  @Test func stateNoWritesNoStateDatabase() async throws {
    let folder = try Self.emptyFolder()
    let run = try await ReckonBinary.run([
      "generate", "--out", folder, "--count", "5", "--state", "no",
    ])
    #expect(run.status == 0, "\(run.standardError)")
    #expect(!FileManager.default.fileExists(atPath: folder + "/reckon-state.sqlite"))
  }

  /// `--out` naming a file, or a path below one, or where no folder can be made, is refused
  /// with the path and the reason, never Foundation's error codes, and nothing is written.
  @Test(arguments: [
    ("policies/targeted.policy", "--out policies/targeted.policy is a file, not a folder"),
    (
      "policies/targeted.policy/generated",
      "--out policies/targeted.policy/generated: policies/targeted.policy is a file, not a folder"
    ),
    ("/proc/nope", "--out /proc/nope: cannot write the generated files there: "),
  ])
  func anOutThatCannotBeAFolderIsRefusedInASentence(_ out: String, _ message: String)
    async throws
  {
    let before = try Data(
      contentsOf: ReckonBinary.packageRoot.appendingPathComponent("policies/targeted.policy"))
    let run = try await ReckonBinary.run(["generate", "--out", out, "--count", "5"])
    #expect(run.status == 1)
    #expect(run.standardError.contains(message), "\(run.standardError)")
    #expect(!run.standardError.contains("Error Domain"), "\(run.standardError)")
    #expect(
      try Data(
        contentsOf: ReckonBinary.packageRoot.appendingPathComponent("policies/targeted.policy"))
        == before)
  }

  @Test func withoutPolicyOutsideReckonsFolderItSaysTheDefaultIsMissing() async throws {
    let elsewhere = try Self.emptyFolder()
    let out = elsewhere + "/generated"
    let run = try await ReckonBinary.run(
      ["generate", "--out", out, "--count", "5"], in: URL(fileURLWithPath: elsewhere))
    #expect(run.status == 2)
    #expect(
      run.standardError.contains(
        "no --policy given, and the default policies/targeted.policy is not in "),
      "\(run.standardError)")
    #expect(run.standardError.contains("pass --policy FILE"), "\(run.standardError)")
    #expect(!FileManager.default.fileExists(atPath: out))
    // Given, it is used from anywhere.
    let policy = ReckonBinary.packageRoot.appendingPathComponent("policies/targeted.policy").path
    let given = try await ReckonBinary.run(
      ["generate", "--out", out, "--count", "5", "--policy", policy],
      in: URL(fileURLWithPath: elsewhere))
    #expect(given.status == 0, "\(given.standardError)")
  }

  @Test(arguments: ["count", "days"])
  func zeroRequestsOrDaysIsAUsageError(_ option: String) async throws {
    let folder = try Self.emptyFolder()
    let run = try await ReckonBinary.run(["generate", "--out", folder, "--\(option)", "0"])
    #expect(run.status == 2)
    #expect(
      run.standardError.contains("--\(option) must be at least 1, not 0"), "\(run.standardError)")
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder).isEmpty)
  }

  /// A mistyped count fails at once rather than fill memory and disk for hours.
  @Test func aCountAboveTenMillionIsAUsageError() async throws {
    let folder = try Self.emptyFolder()
    let run = try await ReckonBinary.run(["generate", "--out", folder, "--count", "99999999999"])
    #expect(run.status == 2)
    #expect(
      run.standardError.contains("--count must be at most 10000000, not 99999999999"),
      "\(run.standardError)")
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder).isEmpty)
  }

  /// The history is past: it ends at `--until` (by default midnight UTC today, where it used to
  /// end weeks after the day it was made), over `--days` days.
  @Test func theHistoryEndsAtUntil() async throws {
    let folder = try Self.emptyFolder()
    let run = try await ReckonBinary.run([
      "generate", "--out", folder, "--count", "200", "--days", "30", "--until", "2026-06-01",
      "--force",
    ])
    #expect(run.status == 0, "\(run.standardError)")
    let end = 1_780_272_000_000.0  // 2026-06-01T00:00:00Z in milliseconds
    let signed = try String(contentsOfFile: folder + "/requests.jsonl", encoding: .utf8)
      .split(separator: "\n").map { line in
        let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
        return try #require(object?["signedDate"] as? Double)
      }
    #expect(signed.count == 200)
    #expect(signed.allSatisfy { $0 < end && $0 >= end - 30 * 86_400_000 })
    #expect(signed.contains { $0 >= end - 2 * 86_400_000 })
  }

  /// Starts `generate` into `out` (a large history, with --force), stops it with SIGINT once it
  /// has begun writing its files, and returns its exit status.
  static func stopPartWay(_ out: String) async throws -> Int32 {
    let process = ChildProcess()
    process.executableURL = try ReckonBinary.location()
    process.arguments = [
      "generate", "--out", out, "--count", "2000000", "--state", "yes", "--force",
      "--policy", ReckonBinary.packageRoot.appendingPathComponent("policies/targeted.policy").path,
    ]
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    let started = Date()
    while process.isRunning, Date().timeIntervalSince(started) < 20 {
      let hidden = ((try? FileManager.default.contentsOfDirectory(atPath: out)) ?? [])
        .filter { $0.hasPrefix(".") && !$0.hasSuffix(".new") }
      if let partial = hidden.first,
        try FileManager.default.contentsOfDirectory(atPath: out + "/" + partial).count > 1
      {
        break
      }
      try await Task.sleep(nanoseconds: 20_000_000)
    }
    kill(process.processIdentifier, SIGINT)
    // Bounded: a lost signal fails the test here rather than holding the run for minutes.
    let deadline = Date().addingTimeInterval(60)
    while process.isRunning, Date() < deadline { usleep(20_000) }
    if process.isRunning {
      kill(process.processIdentifier, SIGKILL)
      process.waitUntilExit()
      Issue.record("generate did not stop within 60 s of SIGINT")
    }
    return process.terminationStatus
  }

  /// A Ctrl-C just after the start is never lost: it either stops the process outright or,
  /// once the handler is in place, stops the run cleanly. Ignoring SIGINT until libdispatch had
  /// registered its handler left a window in which one was thrown away, and the run went on to
  /// its end (seen once, on a busy machine, as a test that waited nine minutes).
  @Test func aCtrlCJustAfterTheStartStopsTheRun() throws {
    for delay in stride(from: 0, through: 300, by: 20) {
      let folder = try Self.emptyFolder()
      let process = ChildProcess()
      process.executableURL = try ReckonBinary.location()
      process.arguments = [
        "generate", "--out", folder, "--count", "2000000", "--policy",
        ReckonBinary.packageRoot.appendingPathComponent("policies/targeted.policy").path,
      ]
      process.standardOutput = FileHandle.nullDevice
      process.standardError = FileHandle.nullDevice
      try process.run()
      usleep(useconds_t(delay * 1_000))
      kill(process.processIdentifier, SIGINT)
      let deadline = Date().addingTimeInterval(15)
      while process.isRunning, Date() < deadline { usleep(20_000) }
      let stopped = !process.isRunning
      if !stopped { kill(process.processIdentifier, SIGKILL) }
      #expect(stopped, "a SIGINT \(delay) ms after the start was lost")
      process.waitUntilExit()
    }
  }

  /// Stopped part way, generate leaves the folder as it was: no partial database that reads
  /// like a whole history, the files --force would have replaced kept, and the folders it made
  /// for the run removed.
  @Test(arguments: ["", "/made/for/it", "/q/../r/s"])
  func aStoppedRunLeavesTheFolderAsItWas(_ below: String) async throws {
    let folder = try Self.emptyFolder()
    let mine = Data("the user's own requests\n".utf8)
    try mine.write(to: URL(fileURLWithPath: folder + "/requests.jsonl"))
    #expect(try await Self.stopPartWay(folder + below) == 130)
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["requests.jsonl"])
    #expect(try Data(contentsOf: URL(fileURLWithPath: folder + "/requests.jsonl")) == mine)
  }

  /// A folder that was there before the run stays, however the path to it was written.
  @Test func aStoppedRunKeepsAnEmptyFolderThatWasThereBefore() async throws {
    let folder = try Self.emptyFolder()
    try FileManager.default.createDirectory(
      atPath: folder + "/keep", withIntermediateDirectories: true)
    #expect(try await Self.stopPartWay(folder + "/new/../keep") == 130)
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["keep"])
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder + "/keep").isEmpty)
  }

  /// A file that cannot be replaced (a folder of that name) is found before anything is moved:
  /// the user's other files are kept.
  @Test func aTargetThatCannotBeReplacedLeavesEveryFileAsItWas() async throws {
    let folder = try Self.emptyFolder()
    try FileManager.default.createDirectory(
      atPath: folder + "/reckon.json", withIntermediateDirectories: true)
    let mine = Data("the user's own requests\n".utf8)
    try mine.write(to: URL(fileURLWithPath: folder + "/requests.jsonl"))
    let run = try await ReckonBinary.run([
      "generate", "--out", folder, "--count", "5", "--force",
    ])
    #expect(run.status != 0)
    #expect(run.standardError.contains("reckon.json"), "\(run.standardError)")
    #expect(try Data(contentsOf: URL(fileURLWithPath: folder + "/requests.jsonl")) == mine)
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
        == ["reckon.json", "requests.jsonl"])
  }

  /// A run killed outright cannot clean up; the next run into the folder removes what it left
  /// (its lock is free), and never the folder of a run still going (its lock is held).
  @Test func aFolderLeftByAKilledRunIsRemovedByTheNext() async throws {
    let folder = try Self.emptyFolder()
    let gone = folder + "/.reckon-partial-999999999-\(UUID().uuidString)"
    let running = folder + "/.reckon-partial-1-\(UUID().uuidString)"
    for path in [gone, running] {
      try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
      try #require(FileManager.default.createFile(atPath: path + "/.lock", contents: nil))
    }
    let held = open(running + "/.lock", O_RDWR)
    defer { close(held) }
    #expect(flock(held, LOCK_EX) == 0)
    let run = try await ReckonBinary.run([
      "generate", "--out", folder, "--count", "5", "--force",
    ])
    #expect(run.status == 0, "\(run.standardError)")
    #expect(!FileManager.default.fileExists(atPath: gone))
    #expect(FileManager.default.fileExists(atPath: running))
  }

  /// A hidden folder with no lock to judge it by (an older Reckon's, or a run killed before it
  /// took its lock) is removed once a minute old, never sooner.
  @Test func aHiddenFolderWithoutALockIsRemovedOnceAMinuteOld() async throws {
    let folder = try Self.emptyFolder()
    let old = folder + "/.reckon-partial-7-\(UUID().uuidString)"
    let fresh = folder + "/.reckon-partial-8-\(UUID().uuidString).new"
    // A user's own files of a like name are never taken for a run's, however old.
    let notes = folder + "/.reckon-partial-notes.txt"
    let mine = folder + "/.reckon-partial-mine"
    for path in [old, fresh, mine] {
      try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }
    try #require(FileManager.default.createFile(atPath: notes, contents: Data("notes\n".utf8)))
    for path in [old, notes, mine] {
      try FileManager.default.setAttributes(
        [.modificationDate: Date().addingTimeInterval(-120)], ofItemAtPath: path)
    }
    let run = try await ReckonBinary.run([
      "generate", "--out", folder, "--count", "5", "--force",
    ])
    #expect(run.status == 0, "\(run.standardError)")
    #expect(!FileManager.default.fileExists(atPath: old))
    #expect(FileManager.default.fileExists(atPath: fresh))
    #expect(FileManager.default.fileExists(atPath: notes))
    #expect(FileManager.default.fileExists(atPath: mine))
  }

  /// A folder reached through a symbolic link and `..` is judged where the link leads: one
  /// that was there is never removed.
  @Test func aFolderReachedThroughALinkIsNeverTakenForOneTheRunMade() async throws {
    let folder = try Self.emptyFolder()
    for made in ["/other/sub", "/other/keep"] {
      try FileManager.default.createDirectory(
        atPath: folder + made, withIntermediateDirectories: true)
    }
    try FileManager.default.createSymbolicLink(
      atPath: folder + "/link", withDestinationPath: folder + "/other/sub")
    _ = try await Self.stopPartWay(folder + "/link/../keep")
    #expect(FileManager.default.fileExists(atPath: folder + "/other/keep"))
  }

  /// Without --force, a file that appears while generating (another run's) is not replaced:
  /// the run stops, and nothing of it lands in the folder.
  @Test func aFileThatAppearsWhileGeneratingIsNotReplacedWithoutForce() async throws {
    let folder = try Self.emptyFolder()
    let process = ChildProcess()
    process.executableURL = try ReckonBinary.location()
    process.arguments = ["generate", "--out", folder, "--count", "150000"]
    let errors = Pipe()
    process.standardOutput = FileHandle.nullDevice
    process.standardError = errors
    try process.run()
    let other = Data("another run's requests\n".utf8)
    // Watched from a thread of its own, and the run stopped while the file is written: on a busy
    // machine a watcher on the task pool woke only after the run had finished, and the test then
    // saw a finished run rather than the race it is about.
    let appeared = await withCheckedContinuation { continuation in
      Thread.detachNewThread {
        let started = Date()
        while process.isRunning, Date().timeIntervalSince(started) < 120 {
          let hidden = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [])
            .filter { $0.hasPrefix(".") }
          if let partial = hidden.first,
            ((try? FileManager.default.contentsOfDirectory(atPath: folder + "/" + partial))?.count
              ?? 0) > 1
          {
            kill(process.processIdentifier, SIGSTOP)
            let written =
              (try? other.write(to: URL(fileURLWithPath: folder + "/requests.jsonl"))) != nil
            kill(process.processIdentifier, SIGCONT)
            continuation.resume(returning: written)
            return
          }
          usleep(5_000)
        }
        continuation.resume(returning: false)
      }
    }
    #expect(appeared, "the run finished before its files were seen being made")
    let message = String(
      decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    #expect(process.terminationStatus != 0)
    #expect(message.contains("appeared while the files were made"), "\(message)")
    #expect(try Data(contentsOf: URL(fileURLWithPath: folder + "/requests.jsonl")) == other)
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["requests.jsonl"])
  }

  /// A history reaching back before 1975 would hold times the facts reader refuses.
  @Test(arguments: [["--until", "1975-02-01"], ["--days", "30000"]])
  func aHistoryStartingBefore1975IsRefusedBeforeAnythingIsWritten(_ options: [String])
    async throws
  {
    let folder = try Self.emptyFolder()
    let run = try await ReckonBinary.run(["generate", "--out", folder, "--count", "5"] + options)
    #expect(run.status == 2, "\(run.standardError)")
    #expect(run.standardError.contains("before 1975"), "\(run.standardError)")
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder).isEmpty)
  }
}
