import Foundation
import ReckonEngine
import ReckonSupport
import Testing

@testable import ReckonServer

/// `reckon serve`'s `listening` line names where each configured store posts and whether this
/// process sends each store's answers, so an operator reads from it why nothing goes out.
struct ListeningLineTests {
  static let apple = #"{"bundleId": "com.example", "environment": "Sandbox", "policy": "a.policy"}"#
  static let play =
    #"{"store": "googlePlay", "packageName": "com.example.play", "policy": "b.policy"}"#
  static let appStoreKey =
    #""appStore": {"issuerId": "57246542-96fe-1a63-e053-0824d011072a", "keyId": "ABC123DEFG", "privateKeyPath": "key.p8"}"#
  static func googlePlay(serviceAccount: Bool) -> String {
    #""googlePlay": {\#(serviceAccount ? #""serviceAccountKeyPath": "sa.json", "# : "")"push": {"audience": "https://r.example.com/google/rtdn", "serviceAccountEmail": "p@x.iam.gserviceaccount.com"}}"#
  }

  struct Case: Sendable, CustomTestStringConvertible {
    let name: String
    let json: String
    let sender: String
    let webhook: String
    let says: [String]
    var testDescription: String { name }
  }

  static let cases = [
    Case(
      name: "App Store with its key", json: #"{"apps": [\#(apple)], \#(appStoreKey)}"#,
      sender: "on", webhook: "/apple/notifications",
      says: ["http://h:1/apple/notifications;", "sending to Apple's App Store Server API"]),
    Case(
      name: "App Store without a key", json: #"{"apps": [\#(apple)]}"#, sender: "off",
      webhook: "/apple/notifications",
      says: [
        "sending off (no appStore key configured: replies wait in the outbox until it is configured, then go out at the next start or reckon send)"
      ]
    ),
    Case(
      name: "Google Play alone, with its service account",
      json: #"{"apps": [\#(play)], \#(googlePlay(serviceAccount: true))}"#, sender: "on",
      webhook: "/google/rtdn",
      says: ["listening on http://h:1/google/rtdn;", "sending to Google Play's Developer API"]),
    Case(
      name: "both stores, the App Store's key alone",
      json:
        #"{"apps": [\#(apple), \#(play)], \#(appStoreKey), \#(googlePlay(serviceAccount: false))}"#,
      sender: "partial", webhook: "/apple/notifications",
      says: [
        "http://h:1/apple/notifications and http://h:1/google/rtdn;",
        "sending to Apple's App Store Server API; off (no googlePlay.serviceAccountKeyPath configured",
      ]),
  ]

  @Test(arguments: cases)
  func theLineSaysWhereEachStorePostsAndWhetherItIsAnswered(_ given: Case) throws {
    let root = try #require(try JSONValue.parse(Data(given.json.utf8)).objectValue)
    let configuration = try ReckonConfiguration(
      ConfigurationReader(root, path: ""), baseDirectory: "/tmp")
    let line = ServeProcess.listening(configuration, url: "http://h:1")
    #expect(line.fields["sender"] == given.sender, "\(line)")
    #expect(line.fields["webhook"] == given.webhook, "\(line)")
    for text in given.says { #expect(line.message.contains(text), "\(line.message)") }
    #expect(line.message.contains("/apple") == !configuration.apps.isEmpty, "\(line.message)")
  }
}
