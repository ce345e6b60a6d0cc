import Foundation
import ReckonAppStore
import ReckonSupport
import ReckonTestSupport
import Synchronization
import Testing

@testable import ReckonEngine

/// How many sends the sender keeps in flight comes from `sender.maximumConcurrentSends`, unless
/// the embedder passes its own.
struct OutboxSenderConcurrencyTests {
  struct Quiet: ConsumptionSender {
    func send(_ body: ValidatedConsumptionBody, transactionId: String, app: AppStoreApp) async
      -> ConsumptionDelivery
    { .networkError("not sent in tests") }
  }

  static func configuration(_ sender: String) throws -> SenderConfiguration {
    let json = """
      {"apps": [{"bundleId": "com.example", "environment": "Sandbox", "policy": "p.policy"}],
       "sender": \(sender)}
      """
    let root = try #require(try JSONValue.parse(Data(json.utf8)).objectValue)
    return try ReckonConfiguration(ConfigurationReader(root, path: ""), baseDirectory: "/tmp")
      .sender
  }

  @Test func theConfiguredNumberIsKept() throws {
    let sender = OutboxSender(
      store: try TestState.store(), sender: Quiet(),
      configuration: try Self.configuration(#"{"maximumConcurrentSends": 24}"#), consentCheck: nil)
    #expect(sender.maximumConcurrentSends == 24)
  }

  @Test func anEmbeddersOwnNumberWins() throws {
    let sender = OutboxSender(
      store: try TestState.store(), sender: Quiet(),
      configuration: try Self.configuration(#"{"maximumConcurrentSends": 24}"#),
      maximumConcurrentSends: 3, consentCheck: nil)
    #expect(sender.maximumConcurrentSends == 3)
  }

  /// Answers 202 at once, except for transaction "slow", whose answer waits until released.
  final class OneSlowAnswer: ConsumptionSender {
    private let state = Mutex<(sent: [String], released: Bool)>(([], false))

    var sent: [String] { state.withLock { $0.sent } }
    func release() { state.withLock { $0.released = true } }

    func send(_ body: ValidatedConsumptionBody, transactionId: String, app: AppStoreApp) async
      -> ConsumptionDelivery
    {
      state.withLock { $0.sent.append(transactionId) }
      while transactionId == "slow", !state.withLock({ $0.released }) {
        try? await Task.sleep(for: .milliseconds(10))
      }
      return .answered(ConsumptionAnswer(status: 202))
    }
  }

  /// Waits up to 10 s for `condition`.
  static func eventually(_ condition: () -> Bool) async -> Bool {
    for _ in 0..<1_000 where !condition() { try? await Task.sleep(for: .milliseconds(10)) }
    return condition()
  }

  /// A reply that comes due while another's answer is slow goes out on a free send: the drain
  /// looks for due entries while its sends are in flight, not once a whole batch has finished.
  @Test func aReplyDueWhileAnotherIsSlowIsSentWithoutWaitingForIt() async throws {
    let store = try OutboxFixture.temporaryStore()
    let answers = OneSlowAnswer()
    let sender = OutboxSender(
      store: store, sender: answers,
      configuration: try SenderSettings.fast(sandboxPerSecond: 100, initialBackoff: 0.2),
      maximumConcurrentSends: 4, consentCheck: nil)
    try OutboxFixture.enqueue(in: store, at: Date(), transaction: "slow")
    let draining = Task { try await sender.drainDue() }
    #expect(await Self.eventually { answers.sent == ["slow"] })
    try OutboxFixture.enqueue(in: store, at: Date(), transaction: "quick")
    try OutboxFixture.enqueue(in: store, at: Date(), transaction: "other")
    #expect(
      await Self.eventually { Set(answers.sent) == ["slow", "quick", "other"] },
      "sent: \(answers.sent)")
    answers.release()
    let summary = try await draining.value
    #expect(summary.sent == 3)
  }
}
