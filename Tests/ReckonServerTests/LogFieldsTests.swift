import Foundation
import ReckonAppStore
import ReckonEngine
import ReckonServer
import ReckonState
import ReckonSupport
import Testing

/// A log pipeline filters on fields, not on words in a message: each event carries the ids,
/// action, rule, status and app its message names, and times are ISO 8601 throughout.
struct LogFieldsTests {
  /// The line `event` is logged as, read by a parser that tells a number from a string.
  static func logged(_ event: ReckonEvent) throws -> [String: JSONValue] {
    let lines = LogLines()
    JSONLogger { lines.append($0) }.log(event)
    return try #require(try JSONValue.parse(Data(lines.all.joined().utf8)).objectValue)
  }

  @Test func aDecisionCarriesItsIdsActionRuleAndEntry() throws {
    let line = try Self.logged(
      .decided(
        requestId: 7, transactionId: "2000000812345678", action: "respond", rule: "heavy use",
        reason: nil, entryId: 3))
    #expect(line["requestId"] == .integer(7), "\(line)")
    #expect(line["transactionId"] == .string("2000000812345678"))
    #expect(line["action"] == .string("respond"))
    #expect(line["rule"] == .string("heavy use"))
    #expect(line["entryId"] == .integer(3), "\(line)")
    #expect(line["event"] == .string("decided"))
  }

  @Test(arguments: [
    (
      SenderEvent.sent(entry: 4, transactionId: "2000000812345678", status: 202),
      ["entryId": 4, "transactionId": "2000000812345678", "status": 202] as [String: Expected]
    ),
    (
      SenderEvent.expired(
        entry: 5, transactionId: "9", deadline: Date(timeIntervalSince1970: 1_790_000_000),
        maybeSent: false),
      ["entryId": 5, "transactionId": "9", "deadline": "2026-09-21T14:13:20Z"]
    ),
    (
      SenderEvent.retrying(
        entry: 6, transactionId: "77", at: Date(timeIntervalSince1970: 1_790_000_000),
        reason: "HTTP 503", status: 503),
      ["entryId": 6, "transactionId": "77", "retryAt": "2026-09-21T14:13:20Z", "status": 503]
    ),
    (
      SenderEvent.failed(entry: 7, transactionId: "78", reason: "HTTP 400", status: 400),
      ["entryId": 7, "transactionId": "78", "status": 400]
    ),
    (
      SenderEvent.throttled(
        app: AppStoreApp(bundleId: "com.example.coins", environment: .production).key,
        until: Date(timeIntervalSince1970: 1_790_000_000)),
      ["app": "com.example.coins", "environment": "Production", "until": "2026-09-21T14:13:20Z"]
    ),
    (SenderEvent.recoveredInterrupted(count: 3, googlePlay: 1), ["count": 3, "googlePlay": 1]),
  ])
  func aSenderEventCarriesWhatItsMessageNames(event: SenderEvent, expected: [String: Expected])
    throws
  {
    let line = try Self.logged(.sender(event))
    for (key, value) in expected {
      switch value {
      case .text(let text): #expect(line[key] == .string(text), "\(key) in \(line)")
      case .number(let number): #expect(line[key] == .integer(number), "\(key) in \(line)")
      }
    }
    // The message writes times as the fields do, not as Swift prints a `Date`.
    #expect(line["message"]?.stringValue?.contains("+0000") == false, "\(line)")
  }

  /// Sends a crash interrupted: Apple's go out again, Google's (which may have gone) do not.
  @Test(arguments: [
    (3, 0, "3 send(s) interrupted by a crash will be sent again"),
    (
      3, 1,
      "3 send(s) interrupted by a crash: 2 will be sent again, and 1 Google Play answer(s), "
        + "which may have reached Google, are failed, not sent again on their own"
    ),
  ])
  func anInterruptedSendsLineSaysWhichGoAgain(count: Int, googlePlay: Int, message: String) {
    #expect(
      SenderEvent.recoveredInterrupted(count: count, googlePlay: googlePlay).description
        == message)
  }

  /// A Google Play app's lines name Google, and its credentials' hint is Google's.
  @Test(arguments: [
    (
      AppKey(bundleId: "com.example.coins", environment: "Production"), "Apple", "reckon keys check"
    ),
    (
      AppKey(bundleId: "com.example.coins", environment: "GooglePlay"), "Google Play",
      "Play Console"
    ),
  ])
  func aPausedOrThrottledAppsLineNamesItsStore(app: AppKey, store: String, hint: String) {
    let until = Date(timeIntervalSince1970: 1_790_000_000)
    let paused = SenderEvent.credentialsProblem(app: app, reason: "HTTP 401", until: until)
    #expect(paused.description.contains(hint), "\(paused)")
    #expect(
      SenderEvent.throttled(app: app, until: until).description.hasPrefix("\(store) rate-limited"))
  }

  /// `app` is the bundle id on every line that names an app, its environment beside it, so one
  /// filter on `app` finds all of an app's lines.
  @Test func aLapsedRequestsLineNamesItsAppByBundleId() throws {
    let line = try Self.logged(
      .undecidedExpired(
        LapsedRequest(
          requestId: 1, transactionId: "7", bundleId: "com.example.coins",
          environment: "Production", deadline: Date(timeIntervalSince1970: 1_790_000_000),
          retries: 2, lastReason: nil)))
    #expect(line["app"] == .string("com.example.coins"), "\(line)")
    #expect(line["environment"] == .string("Production"), "\(line)")
    #expect(line["message"]?.stringValue?.contains("com.example.coins (Production)") == true)
  }

  /// A Google Play review that lapsed is told in Google's terms: an order, an answer Google
  /// did not get.
  @Test(arguments: [
    ("Production", "for transaction 7 of", "Apple got no reply"),
    ("GooglePlay", "for order 7 of", "Google Play got no answer"),
  ])
  func aLapsedRequestsLineNamesItsStoresTerms(_ environment: String, _ what: String, _ lost: String)
    throws
  {
    let line = try Self.logged(
      .undecidedExpired(
        LapsedRequest(
          requestId: 1, transactionId: "7", bundleId: "com.example.coins",
          environment: environment, deadline: Date(timeIntervalSince1970: 1_790_000_000),
          retries: 0, lastReason: nil)))
    let message = try #require(line["message"]?.stringValue)
    #expect(message.contains(what), "\(message)")
    #expect(message.hasSuffix(lost), "\(message)")
  }

  @Test func theTimeOfALineHasMilliseconds() throws {
    let time = try #require(try Self.logged(.retryFailed(reason: "x"))["time"]?.stringValue)
    #expect(
      time.range(
        of: #"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$"#, options: .regularExpression) != nil,
      "\(time)")
  }

  @Test func countsOfAPruneAreNumbers() throws {
    let line = try Self.logged(
      .pruned(
        before: Date(timeIntervalSince1970: 1_790_000_000),
        removed: PruneCounts(notifications: 12, decisions: 3, entries: 2, attempts: 5, outcomes: 1))
    )
    for (key, number) in [("notifications", 12), ("decisions", 3), ("entries", 2), ("attempts", 5)]
    {
      #expect(line[key] == .integer(number), "\(key) in \(line)")
    }
  }
}

/// A field value a log line should carry: text, or a JSON number.
enum Expected: Sendable, ExpressibleByStringLiteral, ExpressibleByIntegerLiteral {
  case text(String)
  case number(Int)

  init(stringLiteral value: String) { self = .text(value) }
  init(integerLiteral value: Int) { self = .number(value) }
}
