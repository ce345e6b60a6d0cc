import Foundation
import ReckonAppStore
import ReckonEngine
import ReckonFacts
import ReckonPolicy
import ReckonSQLite
import ReckonState
import ReckonStateSQLite
import ReckonTestSupport
import Testing

/// `reckon dry-run` over Google Play reviews, as a user runs it: a requests file of Pub/Sub push
/// bodies (beside Apple's lines or alone), a state database `reckon serve` recorded them in,
/// the answers in Google's words in every output, and a policy that does not check in a store's
/// words refused for that store's requests.
struct GooglePlayDryRunCommandTests {
  static let root = ReckonBinary.packageRoot.path
  static let playPolicy = root + "/examples/google-play/play.policy"
  static let reviewFile = root + "/examples/google-play/review.json"
  static let spentOrder = "GPA.3312-5841-2290-11234"
  static let barelyUsedOrder = "GPA.1111-2222-3333-44444"

  /// A policy of words both stores share.
  static let sharedPolicy = """
    policy "both stores"
    rule "barely used"
      when usage.consumed < 10%
      then share data only
    rule "never delivered"
      when delivery.status != DELIVERED
      then do not respond
    otherwise share data only
    """

  /// A scratch folder of its own.
  static func folder() throws -> String {
    let folder = TestScratch.folder.appendingPathComponent("gp-dry-run-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    return folder
  }

  /// The example review for `orderId` with Google's reason number `reason`, as JSON text.
  static func review(orderId: String, reason: Int) throws -> String {
    try String(contentsOfFile: reviewFile, encoding: .utf8)
      .replacingOccurrences(of: spentOrder, with: orderId)
      .replacingOccurrences(of: "\"refundReason\": 6", with: "\"refundReason\": \(reason)")
      .replacingOccurrences(of: "\n", with: " ")
  }

  /// A Pub/Sub push body carrying `notification`, as Google posts it.
  static func push(_ notification: String, messageId: String) -> String {
    let data = Data(notification.utf8).base64EncodedString()
    return #"{"message": {"data": "\#(data)", "messageId": "\#(messageId)", "#
      + #""publishTime": "2026-11-29T10:00:00Z"}, "subscription": "projects/p/subscriptions/s"}"#
  }

  /// The facts of both example orders, by order id.
  static let facts = """
    {"byTransactionId": {
      "\(spentOrder)": {"customer.consented": true, "delivery.status": "DELIVERED",
        "product.sample_offered": false, "usage.consumed": "100%",
        "customer.lifetime_spent": "19.96 USD"},
      "\(barelyUsedOrder)": {"customer.consented": true, "delivery.status": "DELIVERED",
        "product.sample_offered": false, "usage.consumed": "5%"}
    }}
    """

  /// A requests file of two pushes and a second copy of the first, and the facts file.
  static func pushes(in folder: String) throws -> (requests: String, facts: String) {
    let spent = push(try review(orderId: spentOrder, reason: 6), messageId: "m-1")
    let lines = [
      spent, push(try review(orderId: barelyUsedOrder, reason: 1), messageId: "m-2"), spent,
    ]
    try (lines.joined(separator: "\n") + "\n").write(
      toFile: folder + "/requests.jsonl", atomically: true, encoding: .utf8)
    try facts.write(toFile: folder + "/facts.json", atomically: true, encoding: .utf8)
    return (folder + "/requests.jsonl", folder + "/facts.json")
  }

  @Test func pushesInARequestsFileAreDecidedInGooglesWords() async throws {
    let folder = try Self.folder()
    let (requests, facts) = try Self.pushes(in: folder)
    let base = ["dry-run", "--policy", Self.playPolicy, "--requests", requests, "--facts", facts]
    let csv = try await ReckonBinary.run(base + ["--format", "csv"])
    #expect(csv.status == 0, "\(csv.standardError)")
    let lines = csv.standardOutput.split(separator: "\n").map(String.init)
    #expect(lines.first?.hasSuffix(",problem,store") == true, "\(lines)")
    #expect(lines.count == 3, "a second copy of a push (same message id) is left out: \(lines)")
    #expect(
      lines[1].hasPrefix(
        "google:m-1,\(Self.spentOrder),2026-11-30T00:53:20.000Z,FRIENDLY_FRAUD,,,,respond,DECLINE,"
      ), "\(lines[1])")
    #expect(lines[1].hasSuffix(",googlePlay"))
    #expect(lines[2].contains(",REMORSE,,,,respond,APPROVE,,barely touched,"), "\(lines[2])")

    let json = try await ReckonBinary.run(base + ["--format", "json"])
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: Any])
    #expect(object["duplicates"] as? Int == 1)
    let rows = try #require(object["requests"] as? [[String: Any]])
    #expect(rows.map { $0["store"] as? String } == ["googlePlay", "googlePlay"])
    let decision = try #require(rows.first?["decision"] as? [String: Any])
    let answer = try #require(decision["answer"] as? [String: Any])
    #expect(answer["refundPreference"] as? String == "DECLINE")
    #expect(answer["consumptionPercentageMilliunits"] as? Int == 100_000)
    #expect(decision["body"] == nil, "Apple's body is left out of a Google row")

    let text = try await ReckonBinary.run(base + ["--html", folder + "/report.html"])
    #expect(text.standardOutput.contains("dry-run of policy \"coin chargebacks\" over 2 requests"))
    #expect(text.standardOutput.contains("FRIENDLY_FRAUD"))
    #expect(text.standardOutput.contains("Google Play reviews among them: 2"))
    #expect(!text.standardOutput.contains("By product type"), "a review names no product type")
    let html = try String(contentsOfFile: folder + "/report.html", encoding: .utf8)
    #expect(html.contains("respond APPROVE") && html.contains("respond DECLINE"))
  }

  @Test func againstComparesGoogleAnswersInGooglesWords() async throws {
    let folder = try Self.folder()
    let (requests, facts) = try Self.pushes(in: folder)
    try Self.sharedPolicy.write(
      toFile: folder + "/both.policy", atomically: true, encoding: .utf8)
    let run = try await ReckonBinary.run([
      "dry-run", "--policy", Self.playPolicy, "--against", folder + "/both.policy",
      "--requests", requests, "--facts", facts,
    ])
    #expect(run.status == 0, "\(run.standardError)")
    #expect(run.standardOutput.contains("2 of 2 answers change"), "\(run.standardOutput)")
    #expect(run.standardOutput.contains("respond DECLINE → respond NEUTRAL"))
    #expect(run.standardOutput.contains("respond APPROVE → respond NEUTRAL"))
  }

  /// Apple's lines decide as they do without Google's beside them, and Google's rows follow.
  @Test func aFileOfBothStoresDecidesEachByItsOwnSchema() async throws {
    let folder = try Self.folder()
    let generate = try await ReckonBinary.run([
      "generate", "--out", folder, "--count", "40", "--seed", "3",
    ])
    #expect(generate.status == 0, "\(generate.standardError)")
    try Self.sharedPolicy.write(
      toFile: folder + "/both.policy", atomically: true, encoding: .utf8)
    let arguments = [
      "dry-run", "--policy", folder + "/both.policy", "--config", folder + "/reckon.json",
      "--format", "csv",
    ]
    let apple = try await ReckonBinary.run(arguments + ["--requests", folder + "/requests.jsonl"])
    #expect(apple.status == 0, "\(apple.standardError)")
    #expect(!apple.standardOutput.contains("store"), "an App Store run reads as it always did")
    // The configuration lists the Google Play app, whose reviews are read by Google's schema
    // through the same sources: the orders are in none, so they are decided without facts.
    try Self.listGooglePlayApp(in: folder)
    let mixed =
      try String(contentsOfFile: folder + "/requests.jsonl", encoding: .utf8)
      + Self.push(try Self.review(orderId: Self.spentOrder, reason: 6), messageId: "m-1") + "\n"
    try mixed.write(toFile: folder + "/mixed.jsonl", atomically: true, encoding: .utf8)
    var both = arguments
    both[4] = folder + "/both.json"
    let run = try await ReckonBinary.run(both + ["--requests", folder + "/mixed.jsonl"])
    #expect(run.status == 0, "\(run.standardError)")
    var lines = run.standardOutput.split(separator: "\n").map(String.init)
    let google = lines.removeLast()
    #expect(google.hasPrefix("google:m-1,\(Self.spentOrder),"), "\(google)")
    #expect(google.hasSuffix(",skip,,no consent,otherwise,,googlePlay"), "\(google)")
    let appleLines = apple.standardOutput.split(separator: "\n").map(String.init)
    #expect(lines.first == appleLines.first! + ",store")
    #expect(
      lines.dropFirst().map { String($0.dropLast(",appStore".count)) }
        == appleLines.dropFirst().map { $0 })
  }

  /// One JSON source serves an App Store app and a Google Play app: the review's product comes
  /// from it, and an override in Apple's words beside it does not stop the run.
  @Test func aSourceServingBothStoresGivesAReviewItsProduct() async throws {
    let folder = try Self.folder()
    let facts = """
      {"byTransactionId": {
        "\(Self.spentOrder)": {"customer.consented": true, "delivery.status": "DELIVERED",
          "product.sample_offered": false, "usage.consumed": "100%", "product.id": "coins_500"},
        "2000000000000001": {"customer.override": "GRANT_FULL"}}}
      """
    let policy = """
      policy "by product" version 1
      rule "the big pack"
        when product.id is not missing and product.id == "coins_500"
        then refund DECLINE
      otherwise share data only
      """
    let configuration = """
      {"apps": [
        {"store": "googlePlay", "packageName": "com.example.coins", "policy": "play.policy"},
        {"bundleId": "com.example.coins", "appAppleId": 1234567890, "environment": "Production",
         "policy": "apple.policy"}],
       "googlePlay": {"push": {"audience": "https://x.example/rtdn",
                               "serviceAccountEmail": "p@x.iam.gserviceaccount.com"}},
       "factSources": [{"name": "app-db", "type": "json", "path": "facts.json"}],
       "state": {"path": "state.sqlite"}}
      """
    let files = [
      "facts.json": facts, "play.policy": policy, "reckon.json": configuration,
      "apple.policy": #"policy "apple" version 1 otherwise share data only"#,
      "requests.jsonl": Self.push(
        try Self.review(orderId: Self.spentOrder, reason: 6), messageId: "m-1"),
    ]
    for (name, text) in files {
      try text.write(toFile: folder + "/" + name, atomically: true, encoding: .utf8)
    }
    let run = try await ReckonBinary.run([
      "dry-run", "--config", folder + "/reckon.json", "--requests", folder + "/requests.jsonl",
      "--policy", folder + "/play.policy", "--format", "csv",
    ])
    #expect(run.status == 0, "\(run.standardError)")
    #expect(run.standardOutput.contains(",respond,DECLINE,,the big pack,"), "\(run.standardOutput)")
  }

  /// A bulk dry-run over a SQLite source serving both stores: a customer whose override is in
  /// Google's words has their App Store request wait, as `reckon serve` makes it, and only when
  /// the policy reads the override; the run goes on for the others. Requests in the scan's
  /// order are read from it, the others by a lookup each.
  @Test(arguments: [true, false], [true, false])
  func aBulkDryRunWaitsOnlyForARequestThatReadsAGoogleWord(readsOverride: Bool, inOrder: Bool)
    async throws
  {
    let folder = try Self.folder()
    let sql =
      try String(contentsOfFile: Self.root + "/examples/facts.sql", encoding: .utf8)
      + "UPDATE support_overrides SET preference = 'NEUTRAL' "
      + "WHERE account_token = '0b9d6c1e-52a4-4f0e-8a77-3c2d1e9f4a10';\n"
    let database = try SQLiteDatabase(
      path: folder + "/facts.sqlite", options: [.readWrite, .create, .noMutex])
    try database.execute(sql)
    let example = try #require(
      try JSONSerialization.jsonObject(
        with: Data(contentsOf: URL(fileURLWithPath: Self.root + "/examples/reckon.json")))
        as? [String: Any])
    var source = try #require(
      (example["factSources"] as? [[String: Any]])?.first { $0["type"] as? String == "sqlite" })
    source["path"] = folder + "/facts.sqlite"
    #expect(source["bulkQuery"] != nil)
    let configuration: [String: Any] = [
      "apps": [
        [
          "bundleId": "com.example.coins", "appAppleId": 1_234_567_890,
          "environment": "Production", "policy": Self.root + "/policies/targeted.policy",
        ],
        ["store": "googlePlay", "packageName": "com.example.coins", "policy": Self.playPolicy],
      ],
      "googlePlay": [
        "push": [
          "audience": "https://x.example/rtdn",
          "serviceAccountEmail": "p@x.iam.gserviceaccount.com",
        ]
      ],
      "factSources": [source], "state": ["path": folder + "/state.sqlite"],
    ]
    try JSONSerialization.data(withJSONObject: configuration).write(
      to: URL(fileURLWithPath: folder + "/reckon.json"))
    // The example request, and one for the customer whose override is NEUTRAL.
    let example1 = try String(
      contentsOfFile: Self.root + "/examples/eval/request.json", encoding: .utf8)
    let other = example1.replacingOccurrences(of: "2000000812345678", with: "2000000800000101")
      .replacingOccurrences(
        of: "7e3fb20b-4cdb-47cc-936d-99d65f608138", with: "0b9d6c1e-52a4-4f0e-8a77-3c2d1e9f4a10"
      )
      .replacingOccurrences(of: "\"notificationUUID\": \"", with: "\"notificationUUID\": \"1")
    let lines = (inOrder ? [other, example1] : [example1, other]).map {
      $0.replacingOccurrences(of: "\n", with: " ")
    }
    try (lines.joined(separator: "\n") + "\n").write(
      toFile: folder + "/requests.jsonl", atomically: true, encoding: .utf8)
    let policy =
      readsOverride
      ? """
      policy "override" version 1
      rule "support" when customer.override is not missing then follow customer.override
      otherwise share data only
      """
      : #"policy "usage" version 1 otherwise share data only"#
    try policy.write(toFile: folder + "/p.policy", atomically: true, encoding: .utf8)
    let run = try await ReckonBinary.run([
      "dry-run", "--config", folder + "/reckon.json", "--requests", folder + "/requests.jsonl",
      "--policy", folder + "/p.policy", "--format", "csv",
    ])
    #expect(run.status == 0, "\(run.standardError)")
    let rows = run.standardOutput.split(separator: "\n").map(String.init)
    let waiting = try #require(rows.first { $0.contains(",2000000800000101,") })
    #expect(
      waiting.contains("NEUTRAL is a Google Play value") == readsOverride, "\(waiting)")
    let decided = try #require(rows.first { $0.contains(",2000000812345678,") })
    #expect(decided.contains(",respond,"), "\(decided)")
  }

  /// Writes both.json: the generated reckon.json with the Google Play app com.example.coins.
  static func listGooglePlayApp(in folder: String) throws {
    var configuration = try String(contentsOfFile: folder + "/reckon.json", encoding: .utf8)
    configuration = configuration.replacingOccurrences(
      of: #""apps": ["#,
      with:
        #""googlePlay": {"push": {"audience": "https://x.example/rtdn", "serviceAccountEmail": "p@x.iam.gserviceaccount.com"}}, "apps": [ { "store": "googlePlay", "packageName": "com.example.coins", "policy": "both.policy" },"#
    )
    try configuration.write(toFile: folder + "/both.json", atomically: true, encoding: .utf8)
  }

  @Test func aPolicyThatDoesNotCheckInAStoresWordsIsRefusedNamingTheStore() async throws {
    let folder = try Self.folder()
    let (requests, facts) = try Self.pushes(in: folder)
    let google = try await ReckonBinary.run([
      "dry-run", "--policy", "policies/targeted.policy", "--requests", requests, "--facts", facts,
    ])
    #expect(google.status == 1)
    #expect(
      google.standardError.contains(
        "holds Google Play reviews, and the policy does not check in Google Play's words"),
      "\(google.standardError)")
    let generate = try await ReckonBinary.run([
      "generate", "--out", folder + "/apple", "--count", "5", "--seed", "3",
    ])
    #expect(generate.status == 0)
    let apple = try await ReckonBinary.run([
      "dry-run", "--policy", Self.playPolicy, "--requests", folder + "/apple/requests.jsonl",
      "--config", folder + "/apple/reckon.json",
    ])
    #expect(apple.status == 1)
    #expect(
      apple.standardError.contains(
        "holds App Store requests, and the policy does not check in the App Store's words"),
      "\(apple.standardError)")
  }

  @Test func aPolicyInGooglePlaysWordsAloneShowsItsWarningsInThoseWords() async throws {
    let folder = try Self.folder()
    let (requests, facts) = try Self.pushes(in: folder)
    let policy = try String(contentsOfFile: Self.playPolicy, encoding: .utf8)
      .replacingOccurrences(
        of: "let used = usage.consumed", with: "let used = usage.consumed\nlet spare = 1")
    try policy.write(toFile: folder + "/warned.policy", atomically: true, encoding: .utf8)
    let run = try await ReckonBinary.run([
      "dry-run", "--policy", folder + "/warned.policy", "--requests", requests, "--facts", facts,
    ])
    #expect(run.status == 0, "\(run.standardError)")
    #expect(run.standardError.contains("'spare' is never used"), "\(run.standardError)")
    #expect(!run.standardError.contains("error["), "no App Store errors: \(run.standardError)")
  }

  @Test func unreadableGoogleLinesAreSkippedOnRequest() async throws {
    let folder = try Self.folder()
    let (requests, facts) = try Self.pushes(in: folder)
    let broken =
      try String(contentsOfFile: requests, encoding: .utf8)
      + #"{"message": {"data": "not base64!", "messageId": "m-9"}, "subscription": "s"}"# + "\n"
    try broken.write(toFile: requests, atomically: true, encoding: .utf8)
    let base = ["dry-run", "--policy", Self.playPolicy, "--requests", requests, "--facts", facts]
    let stopped = try await ReckonBinary.run(base)
    #expect(stopped.status == 1)
    #expect(stopped.standardError.contains("requests.jsonl:4"), "\(stopped.standardError)")
    let skipped = try await ReckonBinary.run(base + ["--skip-bad-lines"])
    #expect(skipped.status == 0, "\(skipped.standardError)")
    #expect(skipped.standardOutput.contains("unreadable lines left out: 1"))
    #expect(skipped.standardOutput.contains("over 2 requests"))
  }

  /// A generated state of App Store requests, with a review `reckon serve` recorded and
  /// decided added.
  static func state(in folder: String) async throws -> String {
    let generate = try await ReckonBinary.run([
      "generate", "--out", folder, "--count", "5", "--seed", "3", "--state", "yes",
    ])
    #expect(generate.status == 0, "\(generate.standardError)")
    let path = folder + "/reckon-state.sqlite"
    let store = try SQLiteStateStore(path: path, rules: .stores)
    let raw = try Data(contentsOf: URL(fileURLWithPath: Self.reviewFile))
    let review = try #require(try GooglePlayRequestFile.load(path: Self.reviewFile, now: nil))
    let record = NotificationRecord(
      notificationUUID: "google:m-1", notificationType: "PENDING_REFUND_REVIEW",
      transactionId: Self.spentOrder, appAccountToken: "acct-7",
      bundleId: "com.example.coins", environment: "GooglePlay", receivedAt: review.receivedAt,
      signedDate: review.receivedAt, rawNotification: raw)
    let requestId = try store.recordNotification(record).requestId
    let schema = FactSchema.standard.schema(for: .googlePlay)
    let policy = try #require(try PolicyFiles.load(Self.playPolicy, schema: schema).policy)
    let document = try FactDocument(
      path: Self.root + "/examples/google-play/review-facts.json", schema: schema)
    var facts = GatheredFacts(request: review, schema: schema)
    facts.add(document.values, from: "review-facts.json", schema: schema)
    let decision = Decider(policy: policy, schema: schema).decide(review, facts: facts)
    _ = try store.recordDecision(
      DecisionRecord(decision: decision, policy: policy, policyText: "play"),
      requestId: requestId, enqueue: nil)
    return path
  }

  @Test func aStateOfBothStoresDecidesEachReviewOnItsRecordedFacts() async throws {
    let folder = try Self.folder()
    let state = try await Self.state(in: folder)
    try Self.sharedPolicy.write(
      toFile: folder + "/both.policy", atomically: true, encoding: .utf8)
    let run = try await ReckonBinary.run([
      "dry-run", "--policy", folder + "/both.policy", "--state", state, "--format", "json",
    ])
    #expect(run.status == 0, "\(run.standardError)")
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(run.standardOutput.utf8)) as? [String: Any])
    let rows = try #require(object["requests"] as? [[String: Any]])
    #expect(Set(rows.compactMap { $0["store"] as? String }) == ["googlePlay", "appStore"])
    let google = try #require(rows.first { $0["store"] as? String == "googlePlay" })
    #expect(google["transactionId"] as? String == Self.spentOrder)
    // The push's message id, as serve recorded it, names the row as a requests file's does.
    #expect(google["notificationUUID"] as? String == "google:m-1", "\(google)")
    #expect(google["reason"] as? String == "FRIENDLY_FRAUD")
    let decision = try #require(google["decision"] as? [String: Any])
    #expect(decision["preference"] as? String == "NEUTRAL", "\(decision)")
    #expect(google["problem"] == nil, "decided on its recorded facts: \(google)")

    // Today's facts: the configured sources, read by Google's schema, have none for the order.
    try Self.listGooglePlayApp(in: folder)
    let current = try await ReckonBinary.run([
      "dry-run", "--policy", folder + "/both.policy", "--state", state, "--config",
      folder + "/both.json", "--facts", "current", "--format", "csv",
    ])
    #expect(current.status == 0, "\(current.standardError)")
    let line = try #require(
      current.standardOutput.split(separator: "\n").first { $0.hasSuffix(",googlePlay") })
    #expect(line.contains(",skip,,no consent,otherwise,"), "\(line)")

    // The Google policy alone cannot decide the App Store request beside the review.
    let refused = try await ReckonBinary.run([
      "dry-run", "--policy", Self.playPolicy, "--state", state,
    ])
    #expect(refused.status == 1)
    #expect(refused.standardError.contains("holds App Store requests"), "\(refused.standardError)")
    #expect(refused.standardError.contains("or --store googlePlay"))

    // --store googlePlay decides the review by it, the App Store requests counted apart.
    let chosen = try await ReckonBinary.run([
      "dry-run", "--policy", Self.playPolicy, "--state", state, "--store", "googlePlay",
      "--format", "json",
    ])
    #expect(chosen.status == 0, "\(chosen.standardError)")
    let only = try #require(
      try JSONSerialization.jsonObject(with: Data(chosen.standardOutput.utf8)) as? [String: Any])
    #expect(only["otherStore"] as? Int == 5)
    let reviews = try #require(only["requests"] as? [[String: Any]])
    #expect(reviews.count == 1)
    let answer = try #require((reviews.first?["decision"] as? [String: Any])?["answer"])
    #expect((answer as? [String: Any])?["refundPreference"] as? String == "DECLINE")
  }

  /// The App Store lines left out are not verified: a signed one stops no run, even with no
  /// configuration to verify it by, and a damaged one is not counted.
  @Test func storeGooglePlayLeavesAFilesAppStoreLinesOutUnverified() async throws {
    let folder = try Self.folder()
    let (requests, facts) = try Self.pushes(in: folder)
    let signed = String(
      decoding: try SimulatedNotification().body(signedBy: LocalCertificateAuthority()),
      as: UTF8.self)
    let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: requests))
    try handle.seekToEnd()
    try handle.write(contentsOf: Data((signed + "\n" + #"{"signedPayload": "a.b"}"# + "\n").utf8))
    try handle.close()
    let run = try await ReckonBinary.run([
      "dry-run", "--policy", Self.playPolicy, "--requests", requests, "--facts", facts,
      "--store", "googlePlay", "--format", "json",
    ])
    #expect(run.status == 0, "\(run.standardError)")
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(run.standardOutput.utf8)) as? [String: Any])
    #expect(object["otherStore"] as? Int == 1)
    #expect((object["requests"] as? [[String: Any]])?.count == 2)
    #expect(object["unreadable"] as? Int == 0)
  }

  /// The example's sources hold facts only Google Play's schema lets a source give (Apple's
  /// signed transaction gives `product.id`): the run opens them by it.
  @Test func theGooglePlayExampleConfigurationGivesTheFacts() async throws {
    let folder = try Self.folder()
    let (requests, _) = try Self.pushes(in: folder)
    let run = try await ReckonBinary.run([
      "dry-run", "--config", Self.root + "/examples/google-play/reckon.json", "--policy",
      Self.playPolicy, "--requests", requests, "--format", "csv",
    ])
    #expect(run.status == 0, "\(run.standardError)")
    let spent = run.standardOutput.split(separator: "\n").first { $0.contains(Self.spentOrder) }
    #expect(spent?.contains(",respond,DECLINE,") == true, "\(run.standardOutput)")
  }

  /// Today's facts for the reviews of a state, from the Google Play example's sources, which
  /// do not open by the App Store's schema: the App Store requests are left out, so they are
  /// not opened by it.
  @Test func aStatesReviewsTakeTodaysFactsFromGooglePlaySources() async throws {
    let folder = try Self.folder()
    let state = try await Self.state(in: folder)
    let run = try await ReckonBinary.run([
      "dry-run", "--policy", Self.playPolicy, "--state", state, "--store", "googlePlay",
      "--config", Self.root + "/examples/google-play/reckon.json", "--facts", "current",
      "--format", "csv",
    ])
    #expect(run.status == 0, "\(run.standardError)")
    let line = try #require(
      run.standardOutput.split(separator: "\n").first { $0.hasSuffix(",googlePlay") })
    #expect(line.contains(",respond,DECLINE,"), "\(line)")
  }

  @Test func storeAppStoreLeavesAFilesGoogleLinesOut() async throws {
    let folder = try Self.folder()
    let (requests, facts) = try Self.pushes(in: folder)
    let run = try await ReckonBinary.run([
      "dry-run", "--policy", "policies/targeted.policy", "--requests", requests, "--facts", facts,
      "--store", "appStore",
    ])
    #expect(run.status == 0, "\(run.standardError)")
    #expect(run.standardOutput.contains("3 of the other store's requests left out (--store)"))
    #expect(run.standardError.contains("nothing was decided"), "\(run.standardError)")
    // A test notification and an unreadable push of the store left out are no requests of it.
    let test = Self.push(
      #"{"version": "1.0", "packageName": "com.example.play", "eventTimeMillis": "1764464000000", "#
        + #""testNotification": {"version": "1.0"}}"#, messageId: "m-test")
    let broken = Self.push("{not json", messageId: "m-broken")
    let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: requests))
    try handle.seekToEnd()
    try handle.write(contentsOf: Data((test + "\n" + broken + "\n").utf8))
    try handle.close()
    let more = try await ReckonBinary.run([
      "dry-run", "--policy", "policies/targeted.policy", "--requests", requests, "--facts", facts,
      "--store", "appStore",
    ])
    #expect(more.status == 0, "\(more.standardError)")
    #expect(more.standardOutput.contains("3 of the other store's requests left out (--store)"))
    let wrong = try await ReckonBinary.run([
      "dry-run", "--policy", Self.playPolicy, "--requests", requests, "--facts", facts,
      "--store", "amazon",
    ])
    #expect(wrong.status == 2)
    #expect(wrong.standardError.contains("--store must be appStore or googlePlay"))
  }
}
