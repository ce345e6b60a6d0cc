import Foundation
import ReckonEngine
import ReckonTestSupport
import Testing

@testable import ReckonTools

/// The generator gives the same data for the same seed, different data for another, and
/// requests that read like Apple's.
struct GeneratorTests {
  private func requestsFile(count: Int, seed: UInt64) throws -> Data {
    let path = TestScratch.folder.appendingPathComponent(
      "reckon-gen-\(UUID().uuidString).jsonl"
    ).path
    defer { try? FileManager.default.removeItem(atPath: path) }
    try GeneratedDataWriter.writeRequests(PastRequestGenerator(count: count, seed: seed), to: path)
    return try Data(contentsOf: URL(fileURLWithPath: path))
  }

  @Test func aStoredDecodedNotificationReadsBackAsTheGeneralDecoderReadsItAtItsStoredTime()
    throws
  {
    let text = String(decoding: try requestsFile(count: 200, seed: 11), as: UTF8.self)
    let stored = Date(timeIntervalSince1970: 1_800_000_000)
    for line in text.split(separator: "\n") {
      let raw = Data(line.utf8)
      let general = try RequestFile.decode(raw, path: "generated")
      let read = try StoredRequestDecoder.request(raw, receivedAt: stored, id: 1)
      #expect(read.notification == general.notification)
      #expect(read.transaction == general.transaction)
      #expect(read.receivedAt == stored)
    }
  }

  @Test func sameSeedGivesTheSameRequests() throws {
    #expect(try requestsFile(count: 500, seed: 3) == requestsFile(count: 500, seed: 3))
  }

  @Test func anotherSeedGivesOtherRequests() throws {
    #expect(try requestsFile(count: 500, seed: 3) != requestsFile(count: 500, seed: 4))
  }

  @Test func everyLineIsAConsumptionRequestInTimeAndTransactionOrder() throws {
    let text = String(decoding: try requestsFile(count: 300, seed: 9), as: UTF8.self)
    let requests = try text.split(separator: "\n").map {
      try RequestFile.decode(Data($0.utf8), path: "generated")
    }
    #expect(requests.count == 300)
    #expect(
      zip(requests, requests.dropFirst()).allSatisfy {
        ($0.transactionId ?? "") < ($1.transactionId ?? "")
      })
    #expect(Set(requests.compactMap(\.notification.notificationUUID)).count == 300)
    #expect(requests.allSatisfy { ($0.transaction.purchaseDate ?? .distantFuture) < $0.receivedAt })
  }

  /// Subscriptions asked about are mostly renewals: their original purchase is whole months
  /// before the renewal, marked as Apple marks it; anything else is its own original.
  @Test func subscriptionsAreOftenRenewalsOfAnEarlierFirstPurchase() throws {
    let text = String(decoding: try requestsFile(count: 2_000, seed: 5), as: UTF8.self)
    let requests = try text.split(separator: "\n").map {
      try RequestFile.decode(Data($0.utf8), path: "generated")
    }
    var renewals = 0
    for request in requests {
      let transaction = request.transaction
      let purchased = try #require(transaction.purchaseDate)
      let original = try #require(transaction.originalPurchaseDate)
      guard transaction.type == .autoRenewable else {
        #expect(original == purchased)
        continue
      }
      let months = purchased.timeIntervalSince(original) / (30 * 86_400)
      #expect(months >= 0 && months == months.rounded() && months <= 11)
      #expect((transaction.transactionReason == .renewal) == (months > 0))
      #expect((transaction.originalTransactionId != transaction.transactionId) == (months > 0))
      if months > 0 { renewals += 1 }
    }
    let subscriptions = requests.filter { $0.transaction.type == .autoRenewable }.count
    #expect(renewals > subscriptions / 2, "\(renewals) renewals of \(subscriptions)")
  }
}
