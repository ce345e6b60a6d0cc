import Foundation
import Testing

/// `--html PATH` on `reckon dry-run` and `reckon report outcomes` never destroys a file: not an
/// input of the run, not a file that is not a report, and a folder it cannot write is reported
/// before the run.
struct HTMLReportOptionTests {
  /// Which input the report is pointed at.
  enum Input: String, CaseIterable, CustomTestStringConvertible {
    case outcomesState, dryRunState, requests, policy, against, config

    var testDescription: String { rawValue }

    /// The command, with `--html` naming its own input; the input's path.
    func command(in folder: String) -> (arguments: [String], target: String) {
      let policy = folder + "/mine.policy"
      let state = folder + "/reckon-state.sqlite"
      let dryRun = [
        "dry-run", "--config", folder + "/reckon.json", "--policy", policy,
        "--against", folder + "/other.policy",
      ]
      let target: String
      var arguments: [String]
      switch self {
      case .outcomesState:
        return (["report", "outcomes", "--state", state, "--html", state], state)
      case .dryRunState:
        arguments = dryRun + ["--state", state]
        target = state
      case .requests:
        arguments = dryRun + ["--requests", folder + "/requests.jsonl"]
        // Spelt differently from --requests: the same file all the same.
        target = folder + "/./requests.jsonl"
      case .policy:
        arguments = dryRun + ["--requests", folder + "/requests.jsonl"]
        target = policy
      case .against:
        arguments = dryRun + ["--requests", folder + "/requests.jsonl"]
        target = folder + "/other.policy"
      case .config:
        arguments = dryRun + ["--requests", folder + "/requests.jsonl"]
        target = folder + "/reckon.json"
      }
      return (arguments + ["--html", target], target)
    }
  }

  /// A generated history with a state database and two policies of its own to overwrite.
  static func folder() async throws -> String {
    let folder = try await DryRunCommandTests.generated(40, state: true)
    for (name, source) in [("mine", "targeted"), ("other", "prefer-refund")] {
      try FileManager.default.copyItem(
        atPath: ReckonBinary.packageRoot.path + "/policies/\(source).policy",
        toPath: folder + "/\(name).policy")
    }
    return folder
  }

  @Test(arguments: Input.allCases)
  func htmlNamingAnInputIsRefusedAndTheInputKept(_ input: Input) async throws {
    let folder = try await Self.folder()
    let (arguments, target) = input.command(in: folder)
    let before = try Data(contentsOf: URL(fileURLWithPath: target))
    let run = try await ReckonBinary.run(arguments)
    #expect(run.status != 0)
    #expect(run.standardError.contains("the report would overwrite it"), "\(run.standardError)")
    #expect(run.standardOutput.isEmpty)
    #expect(try Data(contentsOf: URL(fileURLWithPath: target)) == before)
  }

  @Test func htmlNamingAFileThatIsNotAReportIsRefused() async throws {
    let folder = try await Self.folder()
    let notes = folder + "/notes.txt"
    try Data("my notes\n".utf8).write(to: URL(fileURLWithPath: notes))
    let run = try await ReckonBinary.run([
      "report", "outcomes", "--state", folder + "/reckon-state.sqlite", "--html", notes,
    ])
    #expect(run.status != 0)
    #expect(run.standardError.contains("exists and is not an HTML report"), "\(run.standardError)")
    #expect(try String(contentsOfFile: notes, encoding: .utf8) == "my notes\n")
  }

  @Test func htmlReplacesAnEarlierReport() async throws {
    let folder = try await Self.folder()
    let report = folder + "/outcomes.html"
    let dryRun = [
      "dry-run", "--config", folder + "/reckon.json", "--policy", folder + "/mine.policy",
      "--requests", folder + "/requests.jsonl", "--html", report,
    ]
    #expect(try await ReckonBinary.run(dryRun).status == 0)
    let arguments = [
      "report", "outcomes", "--state", folder + "/reckon-state.sqlite", "--html", report,
    ]
    let run = try await ReckonBinary.run(arguments)
    #expect(run.status == 0, "\(run.standardError)")
    #expect(try String(contentsOfFile: report, encoding: .utf8).contains("Refund outcomes"))
  }

  /// Somebody's own page is HTML too, but not a report Reckon wrote: it is kept.
  @Test(arguments: [
    "<!DOCTYPE html><p>mine</p>", "<!doctype html>\n<html><body>notes</body></html>",
  ])
  func htmlNamingAnotherHTMLPageIsRefused(page: String) async throws {
    let folder = try await Self.folder()
    let mine = folder + "/mine.html"
    try Data(page.utf8).write(to: URL(fileURLWithPath: mine))
    let run = try await ReckonBinary.run([
      "report", "outcomes", "--state", folder + "/reckon-state.sqlite", "--html", mine,
    ])
    #expect(run.status != 0)
    #expect(
      run.standardError.contains("exists and is not an HTML report Reckon wrote"),
      "\(run.standardError)")
    #expect(try String(contentsOfFile: mine, encoding: .utf8) == page)
  }

  @Test(arguments: [
    ("", "--html was given an empty value"), ("  ", "--html was given an empty value"),
    ("x.html/", "is a folder"),
  ])
  func htmlNamingNoFileIsRefusedBeforeTheRun(path: String, problem: String) async throws {
    let folder = try await Self.folder()
    let run = try await ReckonBinary.run([
      "report", "outcomes", "--state", folder + "/reckon-state.sqlite", "--html", path,
    ])
    #expect(run.status != 0)
    #expect(run.standardOutput.isEmpty, "the report ran before the path was checked")
    #expect(run.standardError.contains(problem), "\(run.standardError)")
    #expect(!run.standardError.contains("NSCocoaErrorDomain"))
  }

  @Test func htmlInAMissingFolderIsRefusedBeforeTheRun() async throws {
    let folder = try await Self.folder()
    let run = try await ReckonBinary.run([
      "dry-run", "--config", folder + "/reckon.json", "--policy", folder + "/mine.policy",
      "--requests", folder + "/requests.jsonl", "--html", folder + "/nodir/x.html",
    ])
    #expect(run.status != 0)
    #expect(run.standardOutput.isEmpty, "the dry-run ran before the folder was checked")
    #expect(
      run.standardError.contains("the folder \(folder)/nodir does not exist"),
      "\(run.standardError)")
    #expect(!run.standardError.contains("NSCocoaErrorDomain"))
  }
}
