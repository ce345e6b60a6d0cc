import Foundation
import ReckonEngine

/// Realistic past refund requests for a coin app, any number of them, the same for the same
/// seed: notifications in time order (transaction ids rising with them), the app's purchases,
/// usage and customers to answer them from, and what Apple later did.
public struct PastRequestGenerator: Sendable {
  /// How many requests.
  public let count: Int
  /// The seed; equal seeds give equal data.
  public let seed: UInt64
  /// The first request's receive time.
  public let start: Date
  /// The days the requests are spread over.
  public let days: Int
  /// The app's bundle id.
  public let bundleId = "com.example.coins"
  /// The app's Apple id.
  public let appAppleId: Int64 = 1_234_567_890

  /// A generator of `count` requests from `start` over `days` days.
  public init(
    count: Int, seed: UInt64 = 1, start: Date = Date(timeIntervalSince1970: 1_790_000_000),
    days: Int = 90
  ) {
    self.count = count
    self.seed = seed
    self.start = start
    self.days = max(1, days)
  }

  /// How many customers the purchases belong to.
  public var customerCount: Int { max(1, count / 4) }

  /// The products sold: id, Apple's type, price in milliunits, coins granted.
  static let products: [(id: String, type: String, price: Int64, units: Int, weight: Int)] = [
    ("com.example.coins.pack100", "Consumable", 990, 100, 30),
    ("com.example.coins.pack500", "Consumable", 4_990, 500, 30),
    ("com.example.coins.pack1000", "Consumable", 9_990, 1_000, 15),
    ("com.example.premium", "Non-Consumable", 14_990, 1, 10),
    ("com.example.pass.monthly", "Auto-Renewable Subscription", 4_990, 30, 15),
  ]
  static let reasons: [(String, Int)] = [
    ("UNINTENDED_PURCHASE", 30), ("FULFILLMENT_ISSUE", 15), ("UNSATISFIED_WITH_PURCHASE", 35),
    ("LEGAL", 5), ("OTHER", 15),
  ]
  static let storefronts: [(String, String, String)] = [
    ("USA", "143441", "USD"), ("GBR", "143444", "GBP"), ("DEU", "143443", "EUR"),
  ]

  /// The request and purchase at `index`.
  public func request(_ index: Int) -> GeneratedRequest {
    var random = GeneratorRandom(seed: seed, stream: 1, index: UInt64(index))
    let spanMs = Int64(days) * 86_400_000
    let received =
      Int64(start.timeIntervalSince1970 * 1000) + spanMs * Int64(index) / Int64(max(1, count))
      + Int64(random.below(60_000))
    let product = GeneratedRequest.pick(Self.products.map(\.weight), &random)
    let store = Self.storefronts[random.below(10) < 7 ? 0 : 1 + random.below(2)]
    // Drawn in the order they always were, so a seed gives the same requests as before.
    let customer = random.below(customerCount)
    let purchasedAt = received - Int64(3_600_000 + random.below(20 * 86_400_000))
    // Most subscriptions asked about are renewals, some of long standing. Drawn from a stream of
    // their own, so every other value stays as the same seed gave it before.
    var renewals = GeneratorRandom(seed: seed, stream: 8, index: UInt64(index))
    let periods =
      Self.products[product].type.hasPrefix("Auto")
      ? [0, 0, 0, 1, 1, 2, 3, 5, 8, 11][renewals.below(10)] : 0
    return GeneratedRequest(
      index: index, notificationUUID: uuid(2, UInt64(index)),
      transactionId: String(2_000_000_000_000_000 + index),
      customer: customer, receivedAt: received,
      purchasedAt: purchasedAt,
      originalPurchasedAt: purchasedAt - Int64(periods) * 30 * 86_400_000,
      product: product, reason: GeneratedRequest.pick(Self.reasons.map(\.1), &random),
      storefront: store.0, storefrontId: store.1, currency: store.2,
      delivered: random.below(100) >= 4, problem: random.below(4),
      sampleOffered: random.below(100) < 20, usage: usageShare(&random),
      lastUsedAfter: Int64(random.below(7 * 86_400_000)))
  }

  /// The customer at `index`.
  public func customer(_ index: Int) -> GeneratedCustomer {
    var random = GeneratorRandom(seed: seed, stream: 3, index: UInt64(index))
    let consent = random.below(100)
    return GeneratedCustomer(
      index: index, token: uuid(4, UInt64(index)),
      createdAt: Int64(start.timeIntervalSince1970 * 1000) - Int64(random.below(1_500))
        * 86_400_000,
      consented: consent < 85 ? 1 : consent < 95 ? 0 : nil,
      lifetimeSpentCents: random.below(50_000), vip: random.below(100) < 3,
      pastRefunds: random.below(100) < 12 ? 1 + random.below(3) : 0,
      override: random.below(100) < 2
        ? ["GRANT_FULL", "DECLINE", "NO_PREFERENCE", "GRANT_PRORATED"][random.below(4)] : nil)
  }

  /// A deterministic version-4-shaped UUID.
  func uuid(_ stream: UInt64, _ index: UInt64) -> String {
    var random = GeneratorRandom(seed: seed, stream: stream, index: index)
    let high = random.next()
    let low = random.next()
    let text = String(
      format: "%08x-%04x-4%03x-8%03x-%012llx", UInt32(truncatingIfNeeded: high >> 32),
      UInt32(truncatingIfNeeded: (high >> 16) & 0xffff), UInt32(truncatingIfNeeded: high & 0xfff),
      UInt32(truncatingIfNeeded: (low >> 48) & 0xfff), low & 0xffff_ffff_ffff)
    return text
  }

  private func usageShare(_ random: inout GeneratorRandom) -> Double {
    switch random.below(10) {
    case 0..<3: 0
    case 3..<7: Double(1 + random.below(99)) / 100
    default: 1
    }
  }
}

/// SplitMix64 over (seed, stream, index): every item has its own sequence, so items can be made
/// in any order and on any thread and still come out the same.
struct GeneratorRandom {
  private var state: UInt64

  init(seed: UInt64, stream: UInt64, index: UInt64) {
    state =
      seed &* 0x9E37_79B9_7F4A_7C15 ^ stream &* 0xD1B5_4A32_D192_ED03 ^ index
      &* 0x8CB9_2BA7_2F3D_8DD7
    _ = next()
  }

  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(max(1, bound))) }
}
