import Foundation
import ReckonTestSupport
import Testing

/// The Google Play part of the demo, command by command: `simulate --init-identity` makes a
/// local OpenID signer, `standin --google-play --create-key` a Google Play with a service
/// account, `serve` on examples/google-play takes the push `simulate --identity` sends, and the
/// stand-in records the one answer. Also `check --store googlePlay`.
@Suite(.serialized) struct GooglePlayCommandTests {
  /// A process running `arguments`, once `line` shows in its `stream` file (20 s at most).
  static func start(_ arguments: [String], waitingFor line: String, in folder: String, name: String)
    async throws -> (ChildProcess, String)
  {
    let process = ChildProcess()
    process.executableURL = try ReckonBinary.location()
    process.arguments = arguments
    process.currentDirectoryURL = ReckonBinary.packageRoot
    let output = folder + "/\(name).out"
    try #require(FileManager.default.createFile(atPath: output, contents: nil))
    let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: output))
    process.standardOutput = handle
    process.standardError = handle
    try process.run()
    let started = Date()
    while Date().timeIntervalSince(started) < 20, process.isRunning,
      !((try? String(contentsOfFile: output, encoding: .utf8))?.contains(line) ?? false)
    {
      try await Task.sleep(nanoseconds: 50_000_000)
    }
    return (process, try String(contentsOfFile: output, encoding: .utf8))
  }

  static func stop(_ process: ChildProcess) {
    if process.isRunning { process.terminate() }
    process.waitUntilExit()
  }

  /// examples/google-play/reckon.json for `folder`, as demo.sh writes it.
  static func configuration(_ folder: String, standIn: String) throws -> String {
    let root = ReckonBinary.packageRoot.path
    var text = try String(
      contentsOfFile: root + "/examples/google-play/reckon.json", encoding: .utf8)
    for (from, to) in [
      (#""play.policy""#, #""\#(root)/examples/google-play/play.policy""#),
      (#""facts.json""#, #""\#(root)/examples/google-play/facts.json""#),
      (#""reckon-state.sqlite""#, #""\#(folder)/state.sqlite""#),
      (
        #""keys/service-account.json""#,
        #""\#(folder)/service-account.json", "baseURL": "\#(standIn)""#
      ),
      (
        #""path": "/google/rtdn","#,
        #""path": "/google/rtdn", "keysFile": "\#(folder)/identity/keys.json", "refreshKeys": false,"#
      ),
      (#""127.0.0.1:8081""#, #""127.0.0.1:0""#),
    ] {
      text = text.replacingOccurrences(of: from, with: to)
    }
    let path = folder + "/google.json"
    try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    return path
  }

  @Test func aSimulatedReviewIsAnsweredOnceThroughServe() async throws {
    let folder = TestScratch.folder.appendingPathComponent("reckon-gp-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    let identity = try await ReckonBinary.run(["simulate", "--init-identity", folder + "/identity"])
    #expect(identity.status == 0, "\(identity.standardError)")
    let again = try await ReckonBinary.run(["simulate", "--init-identity", folder + "/identity"])
    #expect(again.status != 0, "an identity servers trust is not replaced without --force")
    var config = try Self.configuration(folder, standIn: "http://127.0.0.1:1")
    let record = folder + "/received.jsonl"
    let (standIn, standInOutput) = try await Self.start(
      ["standin", "--google-play", "--config", config, "--create-key", "--record", record],
      waitingFor: "listening on", in: folder, name: "standin")
    defer { Self.stop(standIn) }
    let standInURL = try #require(
      standInOutput.split(separator: "\n").first { $0.hasPrefix("listening on ") }
    ).dropFirst("listening on ".count)
    config = try Self.configuration(folder, standIn: String(standInURL))
    // Before going live: the Google Play parts check too, each on its line.
    let doctor = try await ReckonBinary.run(["doctor", "--config", config, "--offline"])
    #expect(doctor.status == 0, "\(doctor.standardOutput)\(doctor.standardError)")
    for line in ["google-play key", "google-play push keys", "app-store key", "policy"] {
      #expect(doctor.standardOutput.contains(line), "\(line): \(doctor.standardOutput)")
    }
    #expect(!doctor.standardOutput.contains("FAIL"), "\(doctor.standardOutput)")
    #expect(
      doctor.standardOutput.contains("loads: com.example.coins (Google Play); 1 fact source"),
      "\(doctor.standardOutput)")
    // Nothing of the App Store's is asked of Google Play apps alone: not its roots, webhook or
    // clock.
    for said in [
      "trusted roots          no App Store app is configured",
      "pass the URL Google Play's Pub/Sub subscription pushes to (https://HOST/google/rtdn)",
      "--offline: Google Play was not asked",
    ] {
      #expect(doctor.standardOutput.contains(said), "\(said): \(doctor.standardOutput)")
    }
    // The Google Play policy's tests run, as reckon test runs them, rather than being skipped.
    #expect(
      doctor.standardOutput.contains("play.tests: 7 tests passed"), "\(doctor.standardOutput)")
    let (serve, serveOutput) = try await Self.start(
      ["serve", "--config", config], waitingFor: #""event":"listening""#, in: folder,
      name: "serve")
    defer { Self.stop(serve) }
    let url = try #require(
      serveOutput.range(of: #""url":"([^"]*)""#, options: .regularExpression).map {
        String(serveOutput[$0].dropFirst(7).dropLast())
      })
    // It says it sends, and where Google posts: no App Store app is configured.
    let listening = try #require(
      serveOutput.split(separator: "\n").first { $0.contains(#""event":"listening""#) })
    #expect(listening.contains(#""sender":"on""#), "\(listening)")
    #expect(listening.contains(#""webhook":"/google/rtdn""#), "\(listening)")
    #expect(!listening.contains("/apple/notifications"), "\(listening)")
    let pushURL = try await ReckonBinary.run([
      "doctor", "--config", config, "--offline", "--url", url + "/google/rtdn",
    ])
    #expect(
      pushURL.standardOutput.contains("/google/rtdn reaches a webhook that takes POST only"),
      "\(pushURL.standardOutput)")
    let appleURL = try await ReckonBinary.run([
      "doctor", "--config", config, "--offline", "--url", url + "/apple/notifications",
    ])
    #expect(
      appleURL.standardOutput.contains(
        "answers 404 to a GET: nothing takes notifications there (googlePlay.push.path is /google/rtdn)"
      ), "\(appleURL.standardOutput)")
    let pushed = try await ReckonBinary.run([
      "simulate", "--identity", folder + "/identity", "--config", config, "--url",
      url + "/google/rtdn",
    ])
    #expect(pushed.status == 0, "\(pushed.standardOutput)\(pushed.standardError)")
    #expect(pushed.standardOutput.contains(#""rule":"spent, and says it was fraud""#))
    var lines: [Substring] = []
    for _ in 0..<100 {
      lines = ((try? String(contentsOfFile: record, encoding: .utf8)) ?? "").split(separator: "\n")
      if lines.contains(where: { $0.contains(#""endpoint":"reviewrefund""#) }) { break }
      try await Task.sleep(nanoseconds: 50_000_000)
    }
    let answer = try #require(lines.first { $0.contains(#""endpoint":"reviewrefund""#) })
    #expect(answer.contains(#""recorded":true"#))
    #expect(answer.contains(#"\"refundPreference\":\"DECLINE\""#), "\(answer)")
    // The token exchange is recorded without the assertion, a credential.
    #expect(!lines.contains { $0.contains("assertion") })
    // Google refunds the chargeback after all: the voided purchase is the review's outcome, and
    // the outcome report counts it for the rule, the reason and the preference sent.
    let voided = try await ReckonBinary.run([
      "simulate", "--identity", folder + "/identity", "--config", config, "--url",
      url + "/google/rtdn", "--voided",
    ])
    #expect(voided.standardOutput.contains(#""result":"outcome""#), "\(voided.standardOutput)")
    Self.stop(serve)
    // The sender alone reads the same sources as serve did, by Google Play's schema.
    let send = try await ReckonBinary.run(["send", "--once", "--config", config])
    #expect(send.status == 0, "\(send.standardOutput)\(send.standardError)")
    let report = try await ReckonBinary.run([
      "report", "outcomes", "--state", folder + "/state.sqlite", "--format", "json",
    ])
    #expect(report.status == 0, "\(report.standardError)")
    for fragment in [
      #""refunded":1"#, "FRIENDLY_FRAUD", "Google Play", "DECLINE",
      "coin chargebacks: spent, and says it was fraud",
    ] {
      #expect(report.standardOutput.contains(fragment), "\(fragment): \(report.standardOutput)")
    }
  }

  /// With refreshKeys false the keys file is all a service verifies pushes with: one that does
  /// not read stops serve's start and fails doctor, rather than refuse every push later as
  /// signed by a key Google does not have.
  @Test(arguments: ["garbage", #"{"keys": []}"#, nil])
  func aKeysFileThatDoesNotReadStopsTheStartAndFailsDoctor(_ contents: String?) async throws {
    let folder = TestScratch.folder.appendingPathComponent("reckon-gp-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(
      atPath: folder + "/identity", withIntermediateDirectories: true)
    let keys = folder + "/identity/keys.json"
    if let contents { try Data(contents.utf8).write(to: URL(fileURLWithPath: keys)) }
    let config = try Self.configuration(folder, standIn: "http://127.0.0.1:1")
    let serve = try await ReckonBinary.run(["serve", "--config", config])
    #expect(serve.status == 1)
    #expect(
      serve.standardError.contains("googlePlay.push.keysFile: \(keys)"), "\(serve.standardError)")
    let doctor = try await ReckonBinary.run(["doctor", "--config", config, "--offline"])
    #expect(doctor.status == 1)
    #expect(
      doctor.standardOutput.contains(
        "FAIL  google-play push keys  googlePlay.push.keysFile: \(keys)"),
      "\(doctor.standardOutput)")
  }

  /// With Google Play's apps alone, the key send lacks is the service account's, not Apple's.
  @Test func sendWithoutAServiceAccountKeyNamesIt() async throws {
    let folder = TestScratch.folder.appendingPathComponent("reckon-gp-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    let configured = try String(
      contentsOfFile: try Self.configuration(folder, standIn: "http://127.0.0.1:1"),
      encoding: .utf8)
    let config = folder + "/no-key.json"
    try Data(
      configured.replacingOccurrences(
        of: #""serviceAccountKeyPath": "\#(folder)/service-account.json", "#, with: ""
      ).utf8
    ).write(to: URL(fileURLWithPath: config))
    #expect(
      !(try String(contentsOfFile: config, encoding: .utf8)).contains("serviceAccountKeyPath"))
    let send = try await ReckonBinary.run(["send", "--once", "--config", config])
    #expect(send.status != 0)
    #expect(
      send.standardError.contains(
        "googlePlay.serviceAccountKeyPath: is required to send Google Play answers"),
      "\(send.standardError)")
    #expect(!send.standardError.contains("appStore:"), "\(send.standardError)")
  }

  @Test func aGooglePlayPolicyChecksInGooglesWordsOnly() async throws {
    let policy = "examples/google-play/play.policy"
    let google = try await ReckonBinary.run(["check", "--store", "googlePlay", policy])
    #expect(google.status == 0, "\(google.standardError)")
    let apple = try await ReckonBinary.run(["check", policy])
    #expect(apple.status == 1)
    #expect(apple.standardError.contains("APPROVE"), "\(apple.standardError)")
    let configured = try await ReckonBinary.run([
      "check", "--config", "examples/google-play/reckon.json", policy,
    ])
    #expect(configured.status == 0, "\(configured.standardError)")
    #expect(configured.standardOutput.contains("checked 1 file: 0 errors, 0 warnings"))
    let wrong = try await ReckonBinary.run(["check", "--store", "play", policy])
    #expect(wrong.status == 2)
  }

  @Test func evalDecidesAGooglePlayReviewInGooglesWords() async throws {
    let run = try await ReckonBinary.run([
      "eval", "--policy", "examples/google-play/play.policy", "--request",
      "examples/google-play/review.json", "--facts", "examples/google-play/review-facts.json",
      "--explain",
    ])
    #expect(run.status == 0, "\(run.standardError)")
    #expect(
      run.standardOutput.hasPrefix(
        #"respond: send the body to Google Play (decided by rule "spent, and says it was fraud")"#
      ), "\(run.standardOutput)")
    #expect(
      run.standardOutput.contains(
        #"body: {"consumptionPercentageMilliunits":100000,"pendingRefundToken":"prt-demo-1","refundPreference":"DECLINE","sampleContentProvided":false}"#
      ))
    #expect(run.standardOutput.contains("reason = FRIENDLY_FRAUD (from notification)"))
  }

  @Test func evalWithTheConfigurationTakesTheGoogleAppsPolicyAndSources() async throws {
    let run = try await ReckonBinary.run([
      "eval", "--config", "examples/google-play/reckon.json", "--request",
      "examples/google-play/review.json",
    ])
    #expect(run.status == 0, "\(run.standardError)")
    #expect(run.standardOutput.contains(#"decided by rule "spent, and says it was fraud""#))
    #expect(run.standardOutput.contains(#""consumptionPercentageMilliunits":100000"#))
  }
}
