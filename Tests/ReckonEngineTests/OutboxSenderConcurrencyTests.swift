import Foundation
import ReckonAppStore
import ReckonSupport
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
}
