// The smallest embedding that needs nothing outside this package: a ReckonService built from
// parts (a policy file, the embedder's own FactSource, a state database path) once, at start-up,
// then handed each raw POST body. Build it once: each build opens the database and announces
// the live policies again. Not a target of this package: paste it into an executable or library target that
// depends on ReckonEngine (and imports the modules it names, as below). EmbeddingExampleTests
// type-checks this file against the public modules on every `swift test`.

import Foundation
import ReckonAppStore
import ReckonEngine
import ReckonFacts
import ReckonPolicy
import ReckonStateSQLite

/// The embedder's own facts: here fixed, in a real app a database or CRM lookup.
struct MyAppFacts: FactSource {
  let name = "my-app"

  func facts(for keys: RequestKeys) async throws -> [String: Value] {
    [
      "customer.consented": .boolean(true),
      "delivery.status": .enumeration(FactSchema.deliveryStatus.ordinal(of: "DELIVERED") ?? 0),
      "product.sample_offered": .boolean(false),
      "usage.consumed": .percent(80),
    ]
  }
}

/// Built once when the server starts; trusts Apple Root CA - G3; no sender: replies are queued.
func makeReckon() throws -> ReckonService {
  try ReckonService(
    apps: [
      .init(
        bundleId: "com.example.coins", appAppleId: 1_234_567_890, environment: .production,
        policy: .file("policies/targeted.policy"))
    ],
    factSources: [.init(MyAppFacts(), timeout: .milliseconds(500))],
    state: try SQLiteStateStore(
      path: "reckon-state.sqlite", rules: .appStore, backgroundCheckpoints: true))
}

/// The route: the same service for every POST.
func handleAppleNotification(_ reckon: ReckonService, postBody: Data) async -> (
  status: Int, body: Data
) {
  await reckon.handleNotification(body: postBody)
}

/// Beside the route, for as long as the server runs: the retry of requests a fact source failed
/// on (or a crash left undecided), policy reloads and, with a sender, the sends. One call; it
/// returns once the task running it is cancelled, after the work in flight finished.
func runReckonLoops(_ reckon: ReckonService) async throws {
  try await reckon.run()
}
