import Foundation
import ReckonAppStore
import ReckonEngine
import ReckonState
import Testing

/// The rules every backend applies to a notification it records, as a store hands them over.
struct ReplyRulesTests {
  typealias Fixture = StateRecordsFixture

  /// A store with no Apple word in it: the state reads only what the rules say.
  static let toy = ReplyRules(
    requestType: "PLEASE_ANSWER", windows: ["live": 100, "practice": 10], otherWindow: 50)

  @Test(arguments: [
    ("CONSUMPTION_REQUEST", true), ("REFUND", false), ("REFUND_DECLINED", false), ("TEST", false),
  ])
  func onlyAConsumptionRequestAsksAppleForAReply(type: String, asks: Bool) {
    var record = Fixture.notification()
    record.notificationType = type
    #expect(ReplyRules.appStore.asksForReply(record) == asks)
  }

  @Test func aStoresOwnRequestTypeIsTheOneThatAsks() {
    var record = Fixture.notification()
    #expect(!Self.toy.asksForReply(record))
    record.notificationType = "PLEASE_ANSWER"
    #expect(Self.toy.asksForReply(record))
  }

  @Test(arguments: [(AppStoreEnvironment.production, 12.0 * 3_600), (.sandbox, 5.0 * 60)])
  func aRequestOpenedOneReplyWindowBeforeItsDeadline(
    environment: AppStoreEnvironment, window: TimeInterval
  ) {
    var record = Fixture.notification()
    record.environment = environment.rawValue
    let rules = ReplyRules.appStore
    let deadline = rules.deadline(of: record)
    #expect(
      rules.requestOpened(deadline: deadline, environment: record.environment)
        == record.receivedAt)
    #expect(deadline.timeIntervalSince(record.receivedAt) == window)
  }

  @Test(arguments: AppStoreEnvironment.allCases)
  func theStatesDeadlineIsApplesDeadline(environment: AppStoreEnvironment) {
    var record = Fixture.notification()
    record.environment = environment.rawValue
    for signed in [nil, record.receivedAt.addingTimeInterval(-90), record.receivedAt + 90] {
      record.signedDate = signed
      #expect(
        ReplyRules.appStore.deadline(of: record)
          == environment.replyDeadline(receivedAt: record.receivedAt, signedDate: signed))
    }
  }

  @Test(arguments: [("live", 100.0), ("practice", 10.0), ("elsewhere", 50.0)])
  func anEnvironmentTheRulesDoNotNameGetsTheirOtherWindow(
    environment: String, window: TimeInterval
  ) {
    #expect(Self.toy.window(environment: environment) == window)
    #expect(Self.toy.longestWindow == 100)
  }

  @Test func appleAskedWhenItSignedAndOtherwiseWhenTheNotificationCameIn() {
    var record = Fixture.notification()
    #expect(record.askedAt == record.receivedAt)
    record.signedDate = record.receivedAt.addingTimeInterval(-90)
    #expect(record.askedAt == record.signedDate)
  }

  @Test func noRequestStaysOpenLongerThanTheLongestReplyWindow() {
    for environment in AppStoreEnvironment.allCases {
      var record = Fixture.notification()
      record.environment = environment.rawValue
      #expect(
        ReplyRules.appStore.deadline(of: record).timeIntervalSince(record.receivedAt)
          <= ReplyRules.appStore.longestWindow)
    }
  }
}

extension ReplyRulesTests {
  @Test func bothStoresRulesAskForEitherStoresRequestEachWithinItsOwnWindow() {
    var record = Fixture.notification()
    let rules = ReplyRules.stores
    #expect(rules.asksForReply(record))
    record.notificationType = "PENDING_REFUND_REVIEW"
    #expect(!ReplyRules.appStore.asksForReply(record))
    #expect(rules.asksForReply(record))
    record.environment = "GooglePlay"
    #expect(rules.deadline(of: record).timeIntervalSince(record.receivedAt) == 24 * 3_600)
    record.environment = "Sandbox"
    #expect(rules.deadline(of: record).timeIntervalSince(record.receivedAt) == 5 * 60)
    #expect(rules.longestWindow == 24 * 3_600)
    #expect(rules.requestTypesSQL == "'CONSUMPTION_REQUEST', 'PENDING_REFUND_REVIEW'")
  }

  @Test func aQuoteInARequestTypeIsEscapedForSQL() {
    let rules = ReplyRules(requestType: "IT'S", windows: [:], otherWindow: 1)
    #expect(rules.requestTypesSQL == "'IT''S'")
  }
}
