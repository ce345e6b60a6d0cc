import Foundation
import ReckonTestSupport
import Testing

/// `reckon check` fails when it would otherwise pass without having checked a decision, so a CI
/// gate on a mistyped path or an empty file does not go green.
struct CheckCommandTests {
  static func scratchFolder() throws -> URL {
    let folder = TestScratch.folder.appendingPathComponent("reckon-check-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    return folder
  }

  @Test func aCustomFactChecksAndTestsWithTheConfigThatDeclaresIt() async throws {
    let policy = "Tests/ReckonCLITests/Fixtures/custom-vip.policy"
    let bare = try await ReckonBinary.run(["check", policy])
    #expect(bare.status == 1)
    #expect(bare.standardError.contains("unknown fact 'custom.vip'"), "\(bare.standardError)")
    let checked = try await ReckonBinary.run(["check", "--config", "examples/reckon.json", policy])
    #expect(checked.status == 0, "\(checked.standardError)")
    #expect(checked.standardOutput.contains("0 errors"))
    let tested = try await ReckonBinary.run(["test", "--config", "examples/reckon.json", policy])
    #expect(tested.status == 0, "\(tested.standardOutput)\(tested.standardError)")
    #expect(
      tested.standardOutput.contains("2 tests: 2 passed, 0 failed"), "\(tested.standardOutput)")
  }

  /// With `--config` and no path, the policies its apps decide by are checked, each in its
  /// apps' words, wherever the command runs; without either, policies/.
  @Test func withAConfigurationAndNoPathItsAppsPoliciesAreChecked() async throws {
    let folder = try Self.scratchFolder()
    let google = ReckonBinary.packageRoot.appendingPathComponent("examples/google-play")
    let run = try await ReckonBinary.run(
      ["check", "--config", google.appendingPathComponent("reckon.json").path], in: folder)
    #expect(run.status == 0, "\(run.standardError)")
    #expect(run.standardOutput == "checked 1 file: 0 errors, 0 warnings\n")
    let json = try await ReckonBinary.run(
      ["check", "--config", "examples/google-play/reckon.json", "--format", "json"])
    #expect(json.standardOutput.contains("play.policy"), "\(json.standardOutput)")
    let bare = try await ReckonBinary.run(["check"], in: folder)
    #expect(bare.status == 1)
    #expect(bare.standardError.contains("policies: no such file or folder"))
  }

  /// With `--config` and no path, the tests beside the policies its apps decide by are run,
  /// those naming no store in the words of the store whose apps use the policy, and a
  /// configured policy with no tests beside it is named.
  @Test func withAConfigurationAndNoPathItsAppsPoliciesAreTested() async throws {
    let folder = try Self.scratchFolder()
    let example = ReckonBinary.packageRoot.appendingPathComponent("examples/google-play")
    try FileManager.default.copyItem(
      at: example.appendingPathComponent("play.policy"),
      to: folder.appendingPathComponent("play.policy"))
    let tests = try String(
      contentsOf: example.appendingPathComponent("play.tests"), encoding: .utf8)
    #expect(tests.contains("\nstore googlePlay\n"))
    try tests.replacingOccurrences(of: "\nstore googlePlay\n", with: "\n").write(
      to: folder.appendingPathComponent("play.tests"), atomically: true, encoding: .utf8)
    try "rule \"all\" when usage.consumed > 50% then refund DECLINE\n".write(
      to: folder.appendingPathComponent("apple.policy"), atomically: true, encoding: .utf8)
    let configuration = """
      {"apps": [{"store": "googlePlay", "packageName": "com.example.coins", "policy": "play.policy"},
                {"bundleId": "com.example.app", "appAppleId": 1, "environment": "Production",
                 "policy": "apple.policy"}],
       "factSources": [], "state": {"path": "state.sqlite"},
       "googlePlay": {"serviceAccountKeyPath": "sa.json", "push": {"path": "/google/rtdn",
         "audience": "https://reckon.example.com/google/rtdn",
         "serviceAccountEmail": "play@example.iam.gserviceaccount.com"}}}
      """
    try configuration.write(
      to: folder.appendingPathComponent("reckon.json"), atomically: true, encoding: .utf8)
    let configured = try await ReckonBinary.run(
      ["test", "--config", folder.appendingPathComponent("reckon.json").path])
    #expect(configured.status == 0, "\(configured.standardOutput)\(configured.standardError)")
    #expect(configured.standardOutput.contains("0 failed"), "\(configured.standardOutput)")
    #expect(
      configured.standardOutput.contains("note: 1 policy has no tests:")
        && configured.standardOutput.contains("apple.policy"), "\(configured.standardOutput)")
    // A configured policy that is not there is named as such, not as a policy without tests.
    try configuration.replacingOccurrences(of: "apple.policy", with: "gone.policy").write(
      to: folder.appendingPathComponent("gone.json"), atomically: true, encoding: .utf8)
    let gone = try await ReckonBinary.run(
      ["test", "--config", folder.appendingPathComponent("gone.json").path])
    #expect(gone.status == 1)
    #expect(gone.standardError.contains("gone.policy: no such file"), "\(gone.standardError)")
    #expect(!gone.standardOutput.contains("no tests"), "\(gone.standardOutput)")
    // Named as a file without --config, the same tests are in the App Store's words.
    let bare = try await ReckonBinary.run(["test", "play.policy"], in: folder)
    #expect(bare.status == 1, "\(bare.standardOutput)")
  }

  /// A file named twice, alone and in its folder or through `./`, is checked (tested,
  /// formatted) once: the output is the same as with the folder alone.
  @Test(arguments: [
    (["check", "policies"], "./policies/heavy-use.policy"),
    (["test", "policies"], "policies/heavy-use.policy"),
    (["test", "policies/heavy-use.policy"], "policies/heavy-use.tests"),
    (["fmt", "--check", "policies"], "policies/heavy-use.policy"),
  ])
  func aFileNamedTwiceCountsOnce(_ arguments: [String], _ again: String) async throws {
    let once = try await ReckonBinary.run(arguments)
    let twice = try await ReckonBinary.run(arguments + [again])
    #expect(once.status == 0, "\(once.standardError)")
    #expect(twice.status == 0, "\(twice.standardError)")
    #expect(twice.standardOutput == once.standardOutput)
  }

  /// `fmt --stdout` of several files says which file each text is, as `head` does.
  @Test func formattedFilesOnStandardOutputAreHeadedByTheirPaths() async throws {
    let run = try await ReckonBinary.run([
      "fmt", "--stdout", "policies/heavy-use.policy", "policies/targeted.policy",
    ])
    #expect(run.status == 0, "\(run.standardError)")
    let headers = run.standardOutput.split(separator: "\n").filter { $0.hasPrefix("==> ") }
    #expect(headers == ["==> policies/heavy-use.policy <==", "==> policies/targeted.policy <=="])
    let alone = try await ReckonBinary.run(["fmt", "--stdout", "policies/heavy-use.policy"])
    #expect(!alone.standardOutput.contains("==>"))
  }

  @Test func aFolderWithoutPolicyFilesIsAnError() async throws {
    let folder = try Self.scratchFolder()
    try Data("not a policy".utf8).write(to: folder.appendingPathComponent("notes.txt"))
    let run = try await ReckonBinary.run(["check", folder.path])
    #expect(run.status == 1)
    #expect(
      run.standardError.contains("no .policy files in \(folder.path)"), "\(run.standardError)")
    #expect(run.standardOutput.contains("checked 0 files: 1 error"), "\(run.standardOutput)")
  }

  /// One run reports every problem: a path that is not there is one of them, not the end.
  @Test func aMissingPathIsReportedAndTheOtherPathsAreStillChecked() async throws {
    let missing = try Self.scratchFolder().appendingPathComponent("nope.policy").path
    let misspelled = "Tests/ReckonCLITests/Fixtures/misspelled.policy"
    let run = try await ReckonBinary.run(["check", missing, misspelled])
    #expect(run.status == 1)
    #expect(run.standardError.contains("reckon check: \(missing): no such file or folder"))
    #expect(run.standardError.contains("\(misspelled):"), "\(run.standardError)")
    #expect(run.standardOutput.contains("checked 1 file:"), "\(run.standardOutput)")
  }

  /// In a folder too: one tests file that cannot be read does not keep the others from running,
  /// and the JSON report says the run did not pass, and why.
  @Test func anUnreadableTestsFileInAFolderLeavesTheOthersRunning() async throws {
    let folder = try Self.scratchFolder()
    for name in ["targeted.policy", "targeted.tests"] {
      try FileManager.default.copyItem(
        at: ReckonBinary.packageRoot.appendingPathComponent("policies/\(name)"),
        to: folder.appendingPathComponent(name))
    }
    try FileManager.default.createSymbolicLink(
      atPath: folder.appendingPathComponent("0.tests").path, withDestinationPath: "nowhere")
    let run = try await ReckonBinary.run(["test", folder.path])
    #expect(run.status == 1)
    #expect(run.standardOutput.contains("1 file, 19 tests: 19 passed"), "\(run.standardOutput)")
    #expect(run.standardOutput.contains("1 path not found, not readable or without tests"))
    let json = try await ReckonBinary.run(["test", "--format", "json", folder.path])
    #expect(json.status == 1)
    let report = try #require(
      try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: Any])
    #expect(report["passed"] as? Bool == false)
    #expect((report["unreadable"] as? [String])?.count == 1)
  }

  /// A folder with a policy but no tests file is named as such, not as a path not found.
  @Test func aFolderWithoutTestsIsSaidToHaveNone() async throws {
    let folder = try Self.scratchFolder()
    try "otherwise share data only\n".write(
      to: folder.appendingPathComponent("a.policy"), atomically: true, encoding: .utf8)
    let run = try await ReckonBinary.run(["test", folder.path])
    #expect(run.status == 1)
    #expect(run.standardError.contains("no .tests files in"), "\(run.standardError)")
    #expect(run.standardOutput.contains("not readable or without tests"), "\(run.standardOutput)")
  }

  @Test func fmtReportsAMissingPathAndStillChecksTheOthers() async throws {
    let missing = try Self.scratchFolder().appendingPathComponent("nope.policy").path
    let run = try await ReckonBinary.run(["fmt", "--check", missing, "policies/targeted.policy"])
    #expect(run.status == 1)
    #expect(run.standardError.contains("reckon fmt: \(missing): no such file or folder"))
    #expect(run.standardOutput.contains("1 file already formatted"), "\(run.standardOutput)")
  }

  @Test func aMissingTestsFileIsReportedAndTheOthersStillRun() async throws {
    let missing = try Self.scratchFolder().appendingPathComponent("nope.tests").path
    let run = try await ReckonBinary.run(["test", missing, "policies/targeted.tests"])
    #expect(run.status == 1)
    #expect(run.standardError.contains("reckon test: \(missing): no such file or folder"))
    #expect(
      run.standardOutput.contains("0 failed, 1 path not found, not readable or without tests"),
      "\(run.standardOutput)")
  }

  @Test(arguments: ["", "# to be written\n", "policy \"later\"\n# rules to come\n"])
  func aPolicyThatNeverDecidesIsAnErrorAtItsStart(_ text: String) async throws {
    let path = try Self.scratchFolder().appendingPathComponent("empty.policy").path
    try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    let run = try await ReckonBinary.run(["check", path])
    #expect(run.status == 1)
    #expect(
      run.standardError.contains(
        "\(path):1:1: error[P0334]: the file has no rules, holds or otherwise: every request would be answered 'share data only' by a file that says nothing"
      ),
      "\(run.standardError)")
    #expect(run.standardOutput.contains("1 error"), "\(run.standardOutput)")
  }

  @Test(arguments: [
    (
      "examples/reckon.json",
      "examples/reckon.json:1:1: error[P0223]: this is JSON, not a policy",
      "configuration is read with --config"
    ),
    (
      "policies/targeted.tests",
      "policies/targeted.tests:", "run its tests with: reckon test policies/targeted.tests"
    ),
  ])
  func aFileOfAnotherKindGetsOneErrorSayingWhatItIs(
    _ path: String, _ error: String, _ hint: String
  ) async throws {
    let run = try await ReckonBinary.run(["check", path])
    #expect(run.status == 1)
    #expect(run.standardError.hasPrefix(error), "\(run.standardError)")
    #expect(run.standardError.contains(hint), "\(run.standardError)")
    #expect(run.standardOutput == "checked 1 file: 1 error, 0 warnings\n")
  }

  @Test func aPolicyWithOnlyOtherwiseStillPasses() async throws {
    let path = try Self.scratchFolder().appendingPathComponent("plain.policy").path
    try Data("otherwise share data only\n".utf8).write(to: URL(fileURLWithPath: path))
    let run = try await ReckonBinary.run(["check", path])
    #expect(run.status == 0, "\(run.standardError)")
  }
}

extension CheckCommandTests {
  @Test(arguments: ["json", "sarif"])
  func checkWritesOneDocumentToStandardOutput(format: String) async throws {
    let policy = "Tests/ReckonCLITests/Fixtures/custom-vip.policy"
    let run = try await ReckonBinary.run(["check", "--format", format, policy])
    #expect(run.status == 1)
    #expect(run.standardError.isEmpty, "\(run.standardError)")
    let document = try JSONSerialization.jsonObject(with: Data(run.standardOutput.utf8))
    #expect(document is [String: Any])
    #expect(run.standardOutput.contains("P0306"))
  }

  @Test func explainSaysWhatACodeMeansAndRefusesOneNoProblemHas() async throws {
    let known = try await ReckonBinary.run(["explain", "P0306"])
    #expect(known.status == 0)
    #expect(known.standardOutput.contains("unknown-fact"))
    let unknown = try await ReckonBinary.run(["explain", "P9999"])
    #expect(unknown.status == 2)
    #expect(unknown.standardError.contains("no problem has the code 'P9999'"))
    let bad = try await ReckonBinary.run(["check", "--format", "xml", "policies"])
    #expect(bad.status == 2)
  }
}

/// Colour on a terminal only: never in a pipe or a file, and never with NO_COLOR.
struct ColourTests {
  @Test func aPipeGetsNoColourAndATerminalDoes() async throws {
    let policy = "Tests/ReckonCLITests/Fixtures/custom-vip.policy"
    let piped = try await ReckonBinary.run(["check", policy])
    #expect(!piped.standardError.contains("\u{1B}["), "\(piped.standardError)")
    // A terminal, through script(1)'s pseudo-terminal where the machine has it; the test
    // runner sets NO_COLOR for its children, so the terminal case unsets it.
    guard FileManager.default.isExecutableFile(atPath: "/usr/bin/script") else { return }
    let binary = try ReckonBinary.location().path
    let terminal = try await ReckonBinary.run(
      ["-qc", "env -u NO_COLOR TERM=xterm \(binary) check \(policy)", "/dev/null"],
      executable: "/usr/bin/script")
    #expect(terminal.standardOutput.contains("\u{1B}[1;31merror[P0306]\u{1B}[0m"))
    let refused = try await ReckonBinary.run(
      ["-qc", "TERM=xterm NO_COLOR=1 \(binary) check \(policy)", "/dev/null"],
      executable: "/usr/bin/script")
    #expect(!refused.standardOutput.contains("\u{1B}["), "\(refused.standardOutput)")
  }

  @Test func aDryRunSummaryOnATerminalHasBoldHeadingsAndNoneInAPipe() async throws {
    guard FileManager.default.isExecutableFile(atPath: "/usr/bin/script") else { return }
    let folder = TestScratch.folder.appendingPathComponent("colour-\(UUID().uuidString)").path
    _ = try await ReckonBinary.run(["generate", "--out", folder, "--count", "50", "-q"])
    let dryRun =
      "dry-run --config \(folder)/reckon.json --requests \(folder)/requests.jsonl --policy policies/targeted.policy"
    let piped = try await ReckonBinary.run(dryRun.split(separator: " ").map(String.init))
    #expect(piped.status == 0, "\(piped.standardError)")
    #expect(!piped.standardOutput.contains("\u{1B}["))
    let binary = try ReckonBinary.location().path
    let terminal = try await ReckonBinary.run(
      ["-qc", "env -u NO_COLOR TERM=xterm \(binary) \(dryRun)", "/dev/null"],
      executable: "/usr/bin/script")
    #expect(terminal.standardOutput.contains("\u{1B}[1mBy action\u{1B}[0m"))
  }
}
