import Foundation
import ReckonAppStore
import ReckonTestSupport
import Testing

/// A verified notification for an app Reckon does not serve is refused 403 and logged and
/// counted under its real notification type, not as an unreadable one.
@Suite(.serialized) struct OtherAppNotificationTests {
  @Test func anotherAppsNotificationIsLoggedAndCountedWithItsType() async throws {
    let fixture = try ServerFixture()
    var notification = ServerFixture.notification()
    notification.bundleId = "com.other"
    let (status, answer) = try await fixture.post(try fixture.body(notification))
    let (_, metrics) = try await fixture.get("/metrics")
    await fixture.stop()

    #expect(status == 403, "\(answer)")
    #expect(answer.contains("bundle id com.other is not \(TestKey.bundleId)"), "\(answer)")
    let line = try #require(
      fixture.logLines.all.first { $0.contains(#""event":"answered""#) }, "\(fixture.logLines.all)")
    #expect(line.contains("CONSUMPTION_REQUEST answered 403 (refused)"), "\(line)")
    #expect(!line.contains("unreadable"), "\(line)")
    // What its signed payload said, for a log pipeline to filter on.
    #expect(line.contains(#""app":"com.other""#), "\(line)")
    #expect(line.contains(#""notificationUUID":"\#(notification.notificationUUID)""#), "\(line)")
    #expect(!line.contains("transactionId"), "the nested transaction was not verified: \(line)")
    #expect(
      metrics.contains(
        #"reckon_webhook_requests_total{type="CONSUMPTION_REQUEST",verdict="refused",status="403"} 1"#
      ), "\(metrics)")
  }
}
