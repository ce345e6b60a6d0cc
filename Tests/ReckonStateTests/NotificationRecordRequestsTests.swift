import Foundation
import ReckonAppStore
import ReckonState
import Testing

/// The rules every backend applies to a notification it records.
struct NotificationRecordRequestsTests {
  typealias Fixture = StateRecordsFixture

  @Test(arguments: [
    ("CONSUMPTION_REQUEST", true), ("REFUND", false), ("REFUND_DECLINED", false), ("TEST", false),
  ])
  func onlyAConsumptionRequestAsksForAReply(type: String, asks: Bool) {
    var record = Fixture.notification()
    record.notificationType = type
    #expect(record.asksForReply == asks)
  }

  @Test(arguments: [(AppStoreEnvironment.production, 12.0 * 3_600), (.sandbox, 5.0 * 60)])
  func aRequestOpenedOneReplyWindowBeforeItsDeadline(
    environment: AppStoreEnvironment, window: TimeInterval
  ) {
    var record = Fixture.notification()
    record.environment = environment
    #expect(record.requestOpened(deadline: record.deadline) == record.receivedAt)
    #expect(record.deadline.timeIntervalSince(record.receivedAt) == window)
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
      record.environment = environment
      #expect(
        record.deadline.timeIntervalSince(record.receivedAt)
          <= NotificationRecord.longestReplyWindow)
    }
  }
}
