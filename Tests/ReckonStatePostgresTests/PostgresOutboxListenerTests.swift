import Foundation
import ReckonState
import ReckonStatePostgres
import ReckonTestSupport
import Synchronization
import Testing

/// What one instance enqueues or an operator approves, every instance's listener hears.
@Suite(.enabled(if: TestPostgres.isAvailable, "needs a PostgreSQL server (see TestPostgres)"))
struct PostgresOutboxListenerTests {
  typealias Fixture = StateSamples

  /// Waits (up to `seconds`) until `condition` holds; returns whether it did.
  static func eventually(within seconds: Double = 5, _ condition: () -> Bool) async -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
      if condition() { return true }
      try? await Task.sleep(nanoseconds: 10_000_000)
    }
    return condition()
  }

  @Test func anEntryEnqueuedOrApprovedByAnotherInstanceIsHeard() async throws {
    let url = try TestPostgres.freshDatabase()
    let stores = try (0..<2).map { _ in
      try PostgresStateStore(address: PostgresAddress(url: url), rules: .appStore)
    }
    let heard = Atomic(0)
    let listener = stores[1].listenForOutboxChanges { heard.add(1, ordering: .relaxed) }
    defer { listener.stop() }
    #expect(await Self.eventually { listener.isListening })
    // Told once on connecting, for what it missed before.
    #expect(await Self.eventually { heard.load(ordering: .relaxed) == 1 })
    let entry = try Fixture.enqueued(in: stores[0], hold: true)
    #expect(await Self.eventually { heard.load(ordering: .relaxed) == 2 }, "the enqueue")
    _ = try stores[0].modifyEntry(id: entry.id, now: Fixture.start) { entry in
      entry.state = .pending(notBefore: Fixture.start)
    }
    #expect(await Self.eventually { heard.load(ordering: .relaxed) == 3 }, "the approval")
    listener.stop()
    #expect(await Self.eventually { !listener.isListening })
  }
}
