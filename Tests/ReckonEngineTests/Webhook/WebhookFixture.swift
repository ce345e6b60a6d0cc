import Foundation
import ReckonAppStore
import ReckonFacts
import ReckonPolicy
import ReckonTestSupport

@testable import ReckonEngine
@testable import ReckonStateSQLite

/// A service over a temporary state database, trusting a local CA, with facts from a source the
/// test can make fail, and a policy that reads the history facts.
struct WebhookFixture {
  static let policy = """
    policy "webhook-test"
    version 1

    rule "asked again"
      when history.earlier_requests >= 1
      then refund GRANT_FULL

    rule "refunded before"
      when history.earlier_refunds >= 1
      then refund DECLINE

    otherwise refund DECLINE
    """

  let authority: LocalCertificateAuthority
  let facts = SwitchableFacts()
  let service: ReckonService
  let statePath: String
  let events = EventLog()

  /// A service for com.example.coins in each of `environments`, all with `policy`.
  init(
    policy: PolicyBook.Source = .text(name: "webhook-test.policy", Self.policy),
    environments: [AppStoreEnvironment] = [.production], statePath: String? = nil,
    sender: (any ConsumptionSender)? = nil, authority: LocalCertificateAuthority? = nil
  ) throws {
    self.authority = try authority ?? LocalCertificateAuthority()
    self.statePath =
      statePath
      ?? TestScratch.folder.appendingPathComponent(
        "reckon-webhook-\(UUID().uuidString).sqlite"
      ).path
    let events = self.events
    service = try ReckonService(
      apps: environments.map {
        .init(
          bundleId: "com.example.coins", appAppleId: 1_234_567_890, environment: $0,
          policy: policy)
      }, factSources: [.init(facts, timeout: .seconds(2))],
      state: try SQLiteStateStore(
        path: self.statePath, rules: .appStore, backgroundCheckpoints: true),
      roots: [self.authority.root], sender: sender, events: { events.append($0) })
  }

  var store: SQLiteStateStore { service.store as! SQLiteStateStore }

  /// A signed body for `notification`.
  func body(_ notification: SimulatedNotification = SimulatedNotification()) throws -> Data {
    try notification.body(signedBy: authority)
  }

  /// How many notifications (of any type, repeats too) are recorded for `transaction`.
  func recorded(transaction: String = "2000000812345678") throws -> Int {
    Int(
      try store.connection.query(
        "SELECT COUNT(*) FROM requests WHERE transaction_id = ?", [.text(transaction)]
      ).first?.int(0) ?? 0)
  }

  /// A JSON answer body as a dictionary.
  static func fields(_ answer: WebhookAnswer) -> [String: String] {
    (try? JSONDecoder().decode([String: String].self, from: answer.body)) ?? [:]
  }
}

/// The facts an app database would give, or a failure while `failing` is set.
final class SwitchableFacts: FactSource, @unchecked Sendable {
  struct Down: Error {}

  let name = "app-db"
  private let lock = NSLock()
  private var failing = false
  private var consented: Bool? = true

  func fail(_ flag: Bool) { lock.withLock { failing = flag } }

  private var hook: (@Sendable () async -> Void)?

  /// Runs `hook` once, the next time facts are asked, before answering.
  func beforeAnswering(_ hook: @escaping @Sendable () async -> Void) {
    lock.withLock { self.hook = hook }
  }

  /// What `customer.consented` says from now on; nil leaves it out.
  func consent(_ flag: Bool?) { lock.withLock { consented = flag } }

  func facts(for keys: RequestKeys) async throws -> [String: Value] {
    let hook = lock.withLock { () -> (@Sendable () async -> Void)? in
      defer { self.hook = nil }
      return self.hook
    }
    if let hook { await hook() }
    if lock.withLock({ failing }) { throw Down() }
    return [
      "customer.consented": lock.withLock { consented }.map(Value.boolean),
      "delivery.status": .enumeration(FactSchema.deliveryStatus.ordinal(of: "DELIVERED") ?? 0),
      "product.sample_offered": .boolean(false),
      "usage.consumed": .percent(10),
    ].compactMapValues { $0 }
  }
}

/// Every event the service reported.
final class EventLog: @unchecked Sendable {
  private let lock = NSLock()
  private var stored: [ReckonEvent] = []

  func append(_ event: ReckonEvent) { lock.withLock { stored.append(event) } }

  var all: [ReckonEvent] { lock.withLock { stored } }
}
