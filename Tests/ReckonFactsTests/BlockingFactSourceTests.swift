import Foundation
import ReckonFacts
import ReckonPolicy
import Synchronization
import Testing

/// A fact source that blocks its thread, or never returns, costs only its own lookups: each
/// times out at its layer's timeout, other sources answer, the pool stays free, and the layer
/// says it is hung until a lookup answers in time again.
struct BlockingFactSourceTests {
  /// Blocks the thread it is called on (breaking the contract) for `seconds`.
  struct BlockingSource: FactSource {
    let name = "blocking"
    let seconds: Double
    func facts(for keys: RequestKeys) async throws -> [String: Value] {
      usleep(useconds_t(seconds * 1_000_000))
      return ["usage.consumed": .percent(10)]
    }
  }

  /// Never returns, whatever cancellation says.
  struct SilentSource: FactSource {
    let name = "silent"
    func facts(for keys: RequestKeys) async throws -> [String: Value] {
      await withCheckedContinuation { (_: CheckedContinuation<Void, Never>) in }
      return [:]
    }
  }

  struct QuickSource: FactSource {
    let name = "quick"
    func facts(for keys: RequestKeys) async throws -> [String: Value] {
      ["customer.consented": .boolean(true)]
    }
  }

  @Test func aBlockingSourceTimesOutWithoutHoldingThePoolOrAnotherSource() async throws {
    let layered = LayeredFactSource(layers: [
      .init(BlockingSource(seconds: 30), timeout: .milliseconds(200)),
      .init(QuickSource(), timeout: .milliseconds(200)),
    ])
    let started = ContinuousClock.now
    // More lookups at once than the pool has threads: each blocks a thread of the source's own.
    let results = await withTaskGroup(of: [LayeredFactSource.LayerResult].self) { group in
      for index in 0..<12 {
        group.addTask { await layered.collect(for: Fixtures.keys(transaction: "\(index)")) }
      }
      var all: [[LayeredFactSource.LayerResult]] = []
      for await result in group { all.append(result) }
      return all
    }
    // Three rounds of four threads blocked for 30 s each, were anyone to wait for them.
    #expect(ContinuousClock.now - started < .seconds(10))
    for layers in results {
      guard case .failure(let failure) = layers[0].result else {
        Issue.record("the blocking source answered")
        continue
      }
      #expect(failure.reason == .timedOut(after: .milliseconds(200)))
      #expect(try layers[1].result.get() == ["customer.consented": .boolean(true)])
    }
    #expect(layered.hungSources == ["blocking"])
  }

  @Test func aSourceThatNeverReturnsTimesOutAndStaysHung() async throws {
    let layered = LayeredFactSource(layers: [.init(SilentSource(), timeout: .milliseconds(100))])
    let started = ContinuousClock.now
    await #expect(throws: FactSourceFailures.self) {
      try await layered.facts(for: Fixtures.keys(transaction: "1"))
    }
    #expect(ContinuousClock.now - started < .seconds(5))
    #expect(layered.hungSources == ["silent"])
  }

  @Test func aSourceThatAnswersInTimeAgainIsNoLongerHung() async throws {
    let slow = SlowThenQuick()
    let layered = LayeredFactSource(layers: [.init(slow, timeout: .milliseconds(100))])
    _ = await layered.collect(for: Fixtures.keys(transaction: "1"))
    #expect(layered.hungSources == ["slow-then-quick"])
    slow.quick.withLock { $0 = true }
    // The slow lookup returns after its timeout; the next, quick one clears the hang.
    try await Task.sleep(for: .milliseconds(3_500))
    _ = await layered.collect(for: Fixtures.keys(transaction: "1"))
    #expect(layered.hungSources.isEmpty)
  }

  @Test func aSourceThatFailsQuicklyIsNotHung() async throws {
    struct Failing: FactSource {
      let name = "failing"
      struct Down: Error {}
      func facts(for keys: RequestKeys) async throws -> [String: Value] { throw Down() }
    }
    let layered = LayeredFactSource(layers: [.init(Failing(), timeout: .milliseconds(100))])
    _ = await layered.collect(for: Fixtures.keys(transaction: "1"))
    #expect(layered.hungSources.isEmpty)
  }
}

/// Blocks three seconds, ignoring cancellation (well past its timeout and the backstop's, on
/// a machine however busy), until told to answer at once.
final class SlowThenQuick: FactSource, @unchecked Sendable {
  let name = "slow-then-quick"
  let quick = Mutex(false)
  func facts(for keys: RequestKeys) async throws -> [String: Value] {
    if !quick.withLock({ $0 }) { usleep(3_000_000) }
    return [:]
  }
}
