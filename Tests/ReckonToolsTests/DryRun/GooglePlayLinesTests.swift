import Foundation
import ReckonEngine
import ReckonGooglePlay
import ReckonTestSupport
import Testing

@testable import ReckonTools

/// The Google Play lines of a requests file: the App Store readers leave them by index, and
/// `GooglePlayLines` reads pushes and decoded notifications, Google's verdicts, other
/// notifications, other packages and bad lines.
struct GooglePlayLinesTests {
  static func notification(_ kind: String, order: String = "GPA.1") -> String {
    #"{"version": "1.0", "packageName": "com.example.coins", "eventTimeMillis": "1796000000000", "#
      + kind.replacingOccurrences(of: "ORDER", with: order) + "}"
  }

  static let review = notification(
    #""pendingRefundReviewNotification": {"version": "1.0", "pendingRefundToken": "t", "orderId": "ORDER", "refundReason": 2}"#
  )

  static func push(_ notification: String, id: String) -> String {
    let data = Data(notification.utf8).base64EncodedString()
    return #"{"message": {"data": "\#(data)", "messageId": "\#(id)"}, "subscription": "s"}"#
  }

  static func lines(_ lines: [String]) throws -> RequestLines {
    let path = TestScratch.folder.appendingPathComponent("gp-lines-\(UUID().uuidString).jsonl")
      .path
    try (lines.joined(separator: "\n") + "\n").write(
      toFile: path, atomically: true, encoding: .utf8)
    return try RequestLines(path: path)
  }

  @Test func theAppStoreReaderLeavesGoogleLinesByIndex() throws {
    let file = try Self.lines([Self.push(Self.review, id: "m"), "{}", Self.review])
    let read = try DryRunSetup.pastRequests(file, verifier: nil, skipBadLines: true)
    #expect(read.googlePlay == [0, 2])
    #expect(read.requests.isEmpty)
  }

  @Test func pushesNotificationsVerdictsAndOtherPackagesAreToldApart() throws {
    let voided = Self.notification(
      #""voidedPurchaseNotification": {"purchaseToken": "p", "orderId": "ORDER", "productType": 2, "refundType": 1}"#
    )
    let test = Self.notification(#""testNotification": {"version": "1.0"}"#)
    let other = Self.review.replacingOccurrences(of: "com.example.coins", with: "com.other.app")
    let file = try Self.lines([
      Self.push(Self.review, id: "m-1"), Self.review, voided, test, other,
    ])
    let read = try GooglePlayLines(
      file, indices: [0, 1, 2, 3, 4], packages: ["com.example.coins"], skipBadLines: false)
    #expect(read.reviews.map(\.messageId) == ["m-1", nil])
    #expect(read.reviews.map(\.origin) == ["\(file.path):1", "\(file.path):2"])
    #expect(read.reviews.first?.review.review.refundReason == .notReceived)
    #expect(read.ignored == 2)
    #expect(read.otherApps == 1)
    #expect(read.lines == 5)
  }

  @Test func aBadGoogleLineStopsTheReadingUnlessSkipped() throws {
    let file = try Self.lines([
      #"{"message": {"data": "%%%", "messageId": "m"}, "subscription": "s"}"#, Self.review,
    ])
    #expect(throws: DryRunError.self) {
      try GooglePlayLines(file, indices: [0, 1], packages: nil, skipBadLines: false)
    }
    let read = try GooglePlayLines(file, indices: [0, 1], packages: nil, skipBadLines: true)
    #expect(read.unreadable.count == 1)
    #expect(read.unreadable.first.first?.description.hasPrefix("\(file.path):1:") == true)
    #expect(read.reviews.count == 1)
  }

  @Test(arguments: [nil, 0, 45_200, 100_000] as [Int?])
  func aGoogleVerdictKeepsItsAnswer(_ milliunits: Int?) {
    for preference in GooglePlayRefundPreference.allCases {
      for sample in [false, true] {
        let answer = GooglePlayDryRunAnswer(
          sampleContentProvided: sample, refundPreference: preference,
          consumptionPercentageMilliunits: milliunits)
        var reasons = SharedSkipReasons(capacity: 0)
        let verdict = DryRunVerdict(
          action: .respond, answer: answer, ruleIndex: 3, sharing: &reasons)
        #expect(verdict.answer == answer)
        #expect(verdict.body == nil)
        #expect(verdict.store == .googlePlay)
        #expect(verdict.ruleIndex == 3)
        #expect(verdict.outcome.preference == preference.rawValue)
      }
    }
  }

  @Test func googleVerdictsDifferByTheirAnswer() {
    var reasons = SharedSkipReasons(capacity: 0)
    let answer = { (milliunits: Int) in
      GooglePlayDryRunAnswer(
        sampleContentProvided: false, refundPreference: .decline,
        consumptionPercentageMilliunits: milliunits)
    }
    let first = DryRunVerdict(
      action: .respond, answer: answer(50_000), ruleIndex: 0, sharing: &reasons)
    let second = DryRunVerdict(
      action: .respond, answer: answer(60_000), ruleIndex: 0, sharing: &reasons)
    #expect(first.outcome == second.outcome)
    #expect(first.differs(from: second))
    #expect(!first.differs(from: first))
  }

  @Test func aSkipForGooglesRulesCountsApartFromApples() {
    let outcome = DryRunOutcome(skipping: .violatesGooglePlayRules([.tooManyUsageEvents(1_001)]))
    #expect(outcome == .skipGooglePlayRules)
    #expect(outcome.description == "skip (breaks Google Play's rules)")
    #expect(DryRunOutcome(skipping: .productTypeUnknown) == .skipAppleRules)
  }
}
