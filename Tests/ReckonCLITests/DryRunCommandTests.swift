import Foundation
import ReckonTestSupport
import Testing

/// `reckon generate`, `reckon dry-run` and `reckon report` as a user runs them: the built binary,
/// a generated history, the HTML report rendered by headless Chromium, and Ctrl-C.
struct DryRunCommandTests {
  static let chromium = ["/usr/bin/chromium", "/usr/bin/chromium-browser"].first {
    FileManager.default.isExecutableFile(atPath: $0)
  }

  /// A generated folder of `count` requests, with a state database.
  static func generated(_ count: Int, state: Bool = false) async throws -> String {
    let folder = TestScratch.folder.appendingPathComponent(
      "reckon-cli-\(UUID().uuidString)"
    ).path
    var arguments = ["generate", "--out", folder, "--count", "\(count)", "--seed", "2"]
    if state { arguments += ["--state", "yes"] }
    let run = try await ReckonBinary.run(arguments)
    #expect(run.status == 0, "\(run.standardError)")
    return folder
  }

  @Test func dryRunPrintsTheSummaryAndWritesTheReport() async throws {
    let folder = try await Self.generated(400)
    let run = try await ReckonBinary.run([
      "dry-run", "--config", folder + "/reckon.json", "--policy", "policies/targeted.policy",
      "--requests", folder + "/requests.jsonl", "--against", "policies/prefer-refund.policy",
      "--html", folder + "/report.html",
    ])
    #expect(run.status == 0, "\(run.standardError)")
    #expect(run.standardOutput.contains("dry-run of policy \"targeted\" over 400 requests"))
    #expect(run.standardOutput.contains("Against \"prefer-refund\""))
    let html = try String(contentsOfFile: folder + "/report.html", encoding: .utf8)
    #expect(html.contains("<b id=\"total\">400</b>"))
    let csv = try await ReckonBinary.run([
      "dry-run", "--config", folder + "/reckon.json", "--policy", "policies/targeted.policy",
      "--requests", folder + "/requests.jsonl", "--format", "csv",
    ])
    #expect(csv.standardOutput.split(separator: "\n").count == 401)
  }

  /// `history.*` facts come from the configured state database when it exists; without one, a
  /// policy that reads them is warned about instead of silently deciding by other rules.
  @Test(arguments: [true, false])
  func historyFactsComeFromTheConfiguredStateDatabaseOrAWarningSaysTheyAreMissing(state: Bool)
    async throws
  {
    let folder = try await Self.generated(200, state: state)
    let run = try await ReckonBinary.run([
      "dry-run", "--config", folder + "/reckon.json",
      "--policy", "policies/decline-first-grant-next.policy",
      "--requests", folder + "/requests.jsonl", "--format", "csv",
    ])
    #expect(run.status == 0, "\(run.standardError)")
    let firstRequests = run.standardOutput.split(separator: "\n").filter {
      $0.contains("first request for this purchase")
    }
    let warned = run.standardError.contains("the policy reads history.earlier_requests")
    #expect(warned == !state)
    #expect(firstRequests.isEmpty == !state)
  }

  /// On the state database, `history.*` are among the facts recorded by the decisions, or read
  /// from that database with `--facts current`.
  @Test(arguments: [["--facts", "recorded"], ["--facts", "current"]])
  func historyFactsOfAStateDatabaseRunAreRecordedOrReadFromIt(facts: [String]) async throws {
    let folder = try await Self.generated(200, state: true)
    let run = try await ReckonBinary.run(
      [
        "dry-run", "--config", folder + "/reckon.json", "--state", folder + "/reckon-state.sqlite",
        "--policy", "policies/decline-first-grant-next.policy", "--format", "csv",
      ] + facts)
    #expect(run.status == 0, "\(run.standardError)")
    #expect(!run.standardError.contains("warning"))
    #expect(run.standardOutput.contains("first request for this purchase"))
  }

  @Test(
    .enabled(
      if: chromium != nil, "Chromium is not installed (scripts/install-packages installs it)"))
  func htmlReportRendersInHeadlessChromiumWithItsTotals() async throws {
    let folder = try await Self.generated(300)
    let run = try await ReckonBinary.run([
      "dry-run", "--config", folder + "/reckon.json", "--policy", "policies/targeted.policy",
      "--requests", folder + "/requests.jsonl", "--against", "policies/prefer-refund.policy",
      "--html", folder + "/report.html", "--format", "json",
    ])
    #expect(run.status == 0, "\(run.standardError)")
    let summary = try #require(
      try JSONSerialization.jsonObject(with: Data(run.standardOutput.utf8)) as? [String: Any])
    let changed = try #require((summary["summary"] as? [String: Any])?["changed"] as? Int)
    try Data("<!DOCTYPE html><html><body></body></html>".utf8).write(
      to: URL(fileURLWithPath: folder + "/blank.html"))

    let dom = try await Self.chromium(["--dump-dom", "file://\(folder)/report.html"])
    #expect(dom.contains("<b id=\"total\">300</b>"))
    #expect(dom.contains("<b id=\"changed\">\(changed)</b>"))
    _ = try await Self.chromium([
      "--screenshot=\(folder)/report.png", "--window-size=1200,1400",
      "file://\(folder)/report.html",
    ])
    _ = try await Self.chromium([
      "--screenshot=\(folder)/blank.png", "--window-size=1200,1400", "file://\(folder)/blank.html",
    ])
    let report = try Data(contentsOf: URL(fileURLWithPath: folder + "/report.png"))
    let blank = try Data(contentsOf: URL(fileURLWithPath: folder + "/blank.png"))
    #expect(Self.pngSize(report)?.height == Self.pngSize(blank)?.height)
    #expect(Self.pngSize(report)?.width == 1200)
    #expect(
      report.count > blank.count * 4,
      "the report renders as much as a blank page: \(report.count) vs \(blank.count) bytes")
  }

  @Test func ctrlCStopsWithThePartialSummary() async throws {
    let folder = try await Self.generated(3_000)
    let process = ChildProcess()
    process.executableURL = try ReckonBinary.location()
    process.arguments = [
      "dry-run", "--config", folder + "/reckon.json", "--policy", "policies/targeted.policy",
      "--requests", folder + "/requests.jsonl",
    ]
    process.currentDirectoryURL = ReckonBinary.packageRoot
    var environment = ProcessInfo.processInfo.environment
    // Paced to a minute in all, so the interrupt lands mid-run even when a busy machine delays
    // this test's wake-up by many seconds.
    environment["RECKON_DRY_RUN_PACE"] = "50"
    process.environment = environment
    let output = Pipe()
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    try process.run()
    try await Task.sleep(nanoseconds: 1_500_000_000)
    #expect(process.isRunning)
    kill(process.processIdentifier, SIGINT)
    let text = await ProcessOutput.readToEnd(process, output).text
    #expect(process.terminationStatus == 130)
    #expect(text.contains("dry-run of policy \"targeted\": stopped after"))
    #expect(!text.contains("over stopped"))
    #expect(text.contains("of at most 3,000 requests ("), "\(text)")
    #expect(text.contains(" of 3,000 lines read)"), "\(text)")
    #expect(text.contains("By action"))
  }

  @Test(arguments: ["csv", "json"])
  func ctrlCDuringRowOutputSaysOnStandardErrorThatItIsPartial(_ format: String) async throws {
    let folder = try await Self.generated(3_000)
    let process = ChildProcess()
    process.executableURL = try ReckonBinary.location()
    process.arguments = [
      "dry-run", "--config", folder + "/reckon.json", "--policy", "policies/targeted.policy",
      "--requests", folder + "/requests.jsonl", "--format", format,
    ]
    process.currentDirectoryURL = ReckonBinary.packageRoot
    var environment = ProcessInfo.processInfo.environment
    environment["RECKON_DRY_RUN_PACE"] = "50"
    process.environment = environment
    let output = Pipe()
    let errors = Pipe()
    process.standardOutput = output
    process.standardError = errors
    try process.run()
    // Read standard error alongside, so a full pipe never blocks the process.
    async let errorText = ProcessOutput.readToEnd(process, errors).text
    try await Task.sleep(nanoseconds: 1_500_000_000)
    #expect(process.isRunning)
    kill(process.processIdentifier, SIGINT)
    _ = await ProcessOutput.readToEnd(process, output).text
    #expect(process.terminationStatus == 130)
    let stderr = await errorText
    #expect(
      stderr.contains("stopped after ")
        && stderr.contains(" of 3,000 lines read): the \(format.uppercased()) output is partial"),
      "\(stderr)")
  }

  @Test func outcomesReportShowsRefundRates() async throws {
    let folder = try await Self.generated(120, state: true)
    let run = try await ReckonBinary.run([
      "report", "outcomes", "--state", folder + "/reckon-state.sqlite", "--format", "json",
      "--html", folder + "/outcomes.html",
    ])
    #expect(run.status == 0, "\(run.standardError)")
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(run.standardOutput.utf8)) as? [String: Any])
    #expect((object["all"] as? [String: Any])?["decisions"] as? Int == 120)
    #expect(
      object["byPreference"] != nil && object["byRule"] != nil && object["byProductType"] != nil)
    #expect(
      try String(contentsOfFile: folder + "/outcomes.html", encoding: .utf8).contains(
        "Refund outcomes"))
  }

  /// Runs Chromium headless off the cooperative pool and returns what it printed.
  static func chromium(_ arguments: [String]) async throws -> String {
    let process = ChildProcess()
    process.executableURL = URL(fileURLWithPath: chromium!)
    process.arguments =
      [
        "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
        "--user-data-dir=\(TestScratch.folder.path)/reckon-chromium-\(UUID().uuidString)",
      ] + arguments
    let output = Pipe()
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    try process.run()
    return await ProcessOutput.readToEnd(process, output).text
  }

  /// Width and height from a PNG's IHDR chunk.
  static func pngSize(_ data: Data) -> (width: Int, height: Int)? {
    let bytes = [UInt8](data.prefix(24))
    guard bytes.count == 24, bytes[1] == 0x50, bytes[2] == 0x4E, bytes[3] == 0x47 else {
      return nil
    }
    func number(_ at: Int) -> Int { bytes[at..<(at + 4)].reduce(0) { $0 << 8 | Int($1) } }
    return (number(16), number(20))
  }
}
