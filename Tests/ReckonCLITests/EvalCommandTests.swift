import Foundation
import ReckonAppStore
import ReckonTestSupport
import Testing

/// `reckon eval`'s inputs: `--now` read as the other date options are, and a `--facts` file
/// whose problems are all named, with its file and fact, and never dropped silently.
struct EvalCommandTests {
  static let fixtures = "Tests/ReckonCLITests/Fixtures"
  static let eval = [
    "eval", "--policy", "policies/targeted.policy", "--request", "\(fixtures)/request.json",
  ]

  /// The value of the fact `name` in `eval --format json`'s output.
  static func fact(_ name: String, in run: ReckonBinary.Run) throws -> String? {
    let report = try JSONSerialization.jsonObject(with: Data(run.standardOutput.utf8))
    let facts = try #require((report as? [String: Any])?["facts"] as? [[String: Any]])
    return facts.first { $0["name"] as? String == name }?["value"] as? String
  }

  @Test func nowTakesAWholeDayAsDryRunSinceDoes() async throws {
    let run = try await ReckonBinary.run(
      Self.eval + [
        "--facts", "\(Self.fixtures)/facts.json", "--now", "2026-11-01", "--format", "json",
      ])
    #expect(run.status == 0, "\(run.standardError)")
    #expect(try Self.fact("now", in: run) == "2026-11-01T00:00:00Z")
  }

  @Test func nowWithATimeButNoZoneIsRefused() async throws {
    let run = try await ReckonBinary.run(
      Self.eval + ["--facts", "\(Self.fixtures)/facts.json", "--now", "2026-11-01T09:30"])
    #expect(run.status == 2)
    #expect(
      run.standardError.hasPrefix("reckon eval: --now: '2026-11-01T09:30' has no time zone"),
      "\(run.standardError)")
  }
}

extension EvalCommandTests {
  /// A facts file in a fresh folder.
  static func factsFile(_ json: String) throws -> String {
    let folder = TestScratch.folder.appendingPathComponent("reckon-eval-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let path = folder.appendingPathComponent("badfacts.json").path
    try Data(json.utf8).write(to: URL(fileURLWithPath: path))
    return path
  }

  @Test func everyBadFactIsNamedWithItsFile() async throws {
    let path = try Self.factsFile(
      #"{"customer.consented": "yes", "usage.consumed": "140%", "delivery.status": "DELIVERED"}"#)
    let run = try await ReckonBinary.run(Self.eval + ["--facts", path])
    #expect(run.status == 1)
    #expect(
      run.standardError == """
        reckon eval: \(path): customer.consented: 'yes' is not a boolean: write true or false
        \(path): usage.consumed: '140%' is not a percent: write a percentage from 0% to 100%, such as 37.5%

        """)
  }

  @Test func aRequestGivenAsFactsIsNamedAsARequest() async throws {
    let request = "\(Self.fixtures)/request.json"
    let run = try await ReckonBinary.run(Self.eval + ["--facts", request])
    #expect(run.status == 1)
    #expect(
      run.standardError
        == "reckon eval: \(request): this looks like a request (an App Store notification), not facts; pass it with --request\n"
    )
  }

  @Test(arguments: [false, true])
  func aFactOnlyTheRequestGivesIsWarnedAboutNotDropped(_ explain: Bool) async throws {
    let facts = try String(
      contentsOfFile: "\(ReckonBinary.packageRoot.path)/\(Self.fixtures)/facts.json",
      encoding: .utf8)
    let path = try Self.factsFile(
      facts.replacingOccurrences(of: "{", with: #"{"reason": "LEGAL", "#))
    let run = try await ReckonBinary.run(
      Self.eval + ["--facts", path] + (explain ? ["--explain"] : []))
    #expect(run.status == 0, "\(run.standardError)")
    #expect(
      run.standardError.contains(
        "warning: \(path): reason is ignored: only the request (the signed notification) gives it"),
      "\(run.standardError)")
  }
}

/// `reckon eval --request` takes the body Apple posts, verified as `reckon serve` verifies it,
/// when a configuration says what to trust; without one it says what to give instead.
struct EvalSignedRequestTests {
  /// A folder with a signed body, a configuration trusting its CA, and the example facts.
  static func workspace() throws -> (folder: String, configuration: String) {
    let folder = TestScratch.folder.appendingPathComponent("reckon-eval-\(UUID().uuidString)")
      .path
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    let authority = try LocalCertificateAuthority()
    try authority.write(to: folder + "/ca")
    try SimulatedNotification().body(signedBy: authority).write(
      to: URL(fileURLWithPath: folder + "/signed.json"))
    let configuration = """
      {
        "apps": [{ "bundleId": "com.example.coins", "appAppleId": 1234567890, "environment": "Production", "policy": "\(ReckonBinary.packageRoot.path)/policies/targeted.policy" }],
        "trust": { "roots": ["\(folder)/ca/root.pem"] }
      }
      """
    try Data(configuration.utf8).write(to: URL(fileURLWithPath: folder + "/reckon.json"))
    return (folder, folder + "/reckon.json")
  }

  @Test func aSignedBodyIsVerifiedAndDecidedWithAConfiguration() async throws {
    let (folder, configuration) = try Self.workspace()
    let run = try await ReckonBinary.run([
      "eval", "--config", configuration, "--request", folder + "/signed.json", "--facts",
      "examples/eval/facts.json",
    ])
    #expect(run.status == 0, "\(run.standardError)")
    #expect(run.standardOutput.contains("decided by rule"), "\(run.standardOutput)")
  }

  @Test func aSignedBodyFromAnUntrustedCAIsRefused() async throws {
    let (folder, configuration) = try Self.workspace()
    let other = try LocalCertificateAuthority()
    try SimulatedNotification().body(signedBy: other).write(
      to: URL(fileURLWithPath: folder + "/forged.json"))
    let run = try await ReckonBinary.run([
      "eval", "--config", configuration, "--request", folder + "/forged.json", "--facts",
      "examples/eval/facts.json",
    ])
    #expect(run.status != 0)
    #expect(
      run.standardError.contains("the signed notification does not verify"), "\(run.standardError)")
  }

  @Test func aSignedBodyWithoutAConfigurationSaysWhatToGive() async throws {
    let (folder, _) = try Self.workspace()
    let run = try await ReckonBinary.run([
      "eval", "--policy", "policies/targeted.policy", "--request", folder + "/signed.json",
      "--facts", "examples/eval/facts.json",
    ])
    #expect(run.status != 0)
    #expect(run.standardError.contains("give --config"), "\(run.standardError)")
    #expect(!run.standardError.contains("no 'data' object"), "\(run.standardError)")
  }
}

extension EvalCommandTests {
  /// A hand-written request's misspelt reason is a warning naming it and the value meant, not
  /// only a missing fact that `--explain` would show.
  @Test func aMisspeltReasonInTheRequestIsAWarning() async throws {
    let text = try String(contentsOfFile: "\(Self.fixtures)/request.json", encoding: .utf8)
    let path = try Self.factsFile("{}").replacingOccurrences(
      of: "badfacts.json", with: "request.json")
    try Data(
      text.replacingOccurrences(of: "UNSATISFIED_WITH_PURCHASE", with: "UNSATISFIED").utf8
    ).write(to: URL(fileURLWithPath: path))
    let run = try await ReckonBinary.run([
      "eval", "--policy", "policies/targeted.policy", "--request", path, "--facts",
      "\(Self.fixtures)/facts.json",
    ])
    #expect(run.status == 0, "\(run.transcript)")
    #expect(
      run.standardError.contains(
        "warning: \(path): consumptionRequestReason 'UNSATISFIED' is not one of Apple's values, so reason is missing (did you mean 'UNSATISFIED_WITH_PURCHASE'?)"
      ), "\(run.transcript)")
  }
}

/// `reckon eval` without a notification file: the request is built from the options.
struct EvalWhatIfTests {
  @Test func theOptionsBuildTheRequestAndTheFactsDecideIt() async throws {
    let run = try await ReckonBinary.run([
      "eval", "--policy", "policies/targeted.policy", "--reason", "UNINTENDED_PURCHASE",
      "--fact", "usage.consumed=100%", "--fact", "customer.account_age=400 days",
      "--fact", "history.earlier_requests=0", "--format", "json",
    ])
    #expect(run.status == 0, "\(run.standardError)")
    #expect(run.standardOutput.contains(#""rule" : "heavy use""#), "\(run.standardOutput)")
    #expect(run.standardError.isEmpty, "\(run.standardError)")
  }

  /// Text is written as the language writes it, between double quotes, or bare; the quotes
  /// are not part of the value.
  @Test(arguments: [
    #"product.id="com.example.coins.pack500""#, "product.id=com.example.coins.pack500",
  ])
  func aTextFactIsReadWithOrWithoutItsQuotes(_ fact: String) async throws {
    let folder = TestScratch.folder.appendingPathComponent("what-if-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let policy = folder.appendingPathComponent("product.policy").path
    try Data(
      """
      rule "the big pack"
        when product.id == "com.example.coins.pack500"
        then refund DECLINE
      otherwise share data only

      """.utf8
    ).write(to: URL(fileURLWithPath: policy))
    let run = try await ReckonBinary.run(["eval", "--policy", policy, "--fact", fact])
    #expect(run.status == 0, "\(run.standardError)")
    #expect(
      run.standardOutput.contains(#"decided by rule "the big pack""#), "\(run.standardOutput)")
  }

  @Test func aPolicyReadingHistoryWithNoneToReadIsWarnedAbout() async throws {
    let run = try await ReckonBinary.run([
      "eval", "--policy", "policies/decline-first-grant-next.policy", "--fact",
      "usage.consumed=40%",
    ])
    #expect(run.status == 0, "\(run.standardError)")
    #expect(run.standardError.contains("warning: the policy reads history.earlier_requests"))
  }

  @Test(arguments: [
    (["--reason", "LEGL"], "did you mean 'LEGAL'?"),
    (["--product-type", "consumable"], "--product-type takes one of CONSUMABLE"),
    (["--fact", "usage.consumd=3%"], "did you mean 'usage.consumed'?"),
    (["--fact", "usage.consumed"], "--fact takes NAME=VALUE"),
    (["--fact", "usage.consumed=lots"], "--fact usage.consumed=lots"),
    (["--facts", "x.json"], "give facts with --fact"),
    // A request no store sends, as a tests file refuses it.
    (["--now", "2026-11-02", "--purchase-date", "2026-11-03"], "--purchase-date is after"),
    (["--fact", "customer.refunds_last_90_days=2.5"], "is not a whole number"),
    (["--fact", "purchase.quantity=2.5"], "is not a whole number the notification can carry"),
    (["--fact", "customer.lifetime_spent=-3 USD"], "is below zero"),
    // One value each: the second would silently win.
    (["--reason", "LEGAL", "--fact", "reason=OTHER"], "--fact reason and --reason both give it"),
    (["--fact", "now=2026-01-01"], "give the request's time with --now"),
    (["--fact", #"product.id="com.x"#], #"is not one text between double quotes"#),
  ])
  func anOptionThatMakesNoRequestIsAUsageError(_ options: [String], _ says: String) async throws {
    let run = try await ReckonBinary.run(
      ["eval", "--policy", "policies/targeted.policy"] + options)
    #expect(run.status == 2)
    #expect(run.standardError.contains(says), "\(run.standardError)")
  }
}
