import Foundation
import ReckonAppStore
import ReckonEngine
import ReckonServer
import Testing

/// A log pipeline filters on fields, not on words in a message: each event carries the ids,
/// action, rule, status and app its message names, and times are ISO 8601 throughout.
struct LogFieldsTests {
  static func logged(_ event: ReckonEvent) throws -> [String: String] {
    let lines = LogLines()
    JSONLogger { lines.append($0) }.log(event)
    return try #require(
      try JSONSerialization.jsonObject(with: Data(lines.all.joined().utf8)) as? [String: String])
  }

  @Test func aDecisionCarriesItsIdsActionRuleAndEntry() throws {
    let line = try Self.logged(
      .decided(
        requestId: 7, transactionId: "2000000812345678", action: "respond", rule: "heavy use",
        reason: nil, entryId: 3))
    #expect(line["requestId"] == "7")
    #expect(line["transactionId"] == "2000000812345678")
    #expect(line["action"] == "respond")
    #expect(line["rule"] == "heavy use")
    #expect(line["entryId"] == "3")
    #expect(line["event"] == "decided")
  }

  @Test(arguments: [
    (
      SenderEvent.sent(entry: 4, transactionId: "2000000812345678", status: 202),
      ["entryId": "4", "transactionId": "2000000812345678", "status": "202"]
    ),
    (
      SenderEvent.expired(
        entry: 5, transactionId: "9", deadline: Date(timeIntervalSince1970: 1_790_000_000),
        maybeSent: false),
      ["entryId": "5", "transactionId": "9", "deadline": "2026-09-21T14:13:20Z"]
    ),
    (
      SenderEvent.retrying(
        entry: 6, transactionId: "77", at: Date(timeIntervalSince1970: 1_790_000_000),
        reason: "HTTP 503", status: 503),
      ["entryId": "6", "transactionId": "77", "retryAt": "2026-09-21T14:13:20Z", "status": "503"]
    ),
    (
      SenderEvent.failed(entry: 7, transactionId: "78", reason: "HTTP 400", status: 400),
      ["entryId": "7", "transactionId": "78", "status": "400"]
    ),
    (
      SenderEvent.throttled(
        app: AppStoreApp(bundleId: "com.example.coins", environment: .production).key,
        until: Date(timeIntervalSince1970: 1_790_000_000)),
      ["app": "com.example.coins (Production)", "until": "2026-09-21T14:13:20Z"]
    ),
  ])
  func aSenderEventCarriesWhatItsMessageNames(event: SenderEvent, expected: [String: String])
    throws
  {
    let line = try Self.logged(.sender(event))
    for (key, value) in expected { #expect(line[key] == value, "\(key) in \(line)") }
    // The message writes times as the fields do, not as Swift prints a `Date`.
    #expect(!(line["message"] ?? "").contains("+0000"), "\(line)")
  }

  @Test func theTimeOfALineHasMilliseconds() throws {
    let time = try #require(try Self.logged(.retryFailed(reason: "x"))["time"])
    #expect(
      time.range(
        of: #"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$"#, options: .regularExpression) != nil,
      "\(time)")
  }
}
