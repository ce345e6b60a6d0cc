import Foundation
import ReckonState
import Testing

/// The in-memory pacing an embedded backend keeps: slots spaced by each key's rate, and holds
/// after a store's 429 that build up while they come in a row.
@Suite struct RateLimiterTests {
  let start = Date(timeIntervalSince1970: 1_700_000_000)

  @Test func rateLimiterSpacesSlotsPerApp() {
    let limiter = RateLimiter()
    let slots = (0..<3).map { _ in limiter.reserve("slow", rate: 5, now: start) }
    #expect(slots.map { ($0.timeIntervalSince(start) * 1_000).rounded() } == [0, 220, 440])
    #expect(limiter.reserve("fast", rate: 50, now: start) == start)
    limiter.hold("fast", until: start.addingTimeInterval(5), now: start)
    #expect(limiter.reserve("fast", rate: 50, now: start) == start.addingTimeInterval(5))
    #expect(limiter.heldUntil("fast", now: start) == start.addingTimeInterval(5))
    #expect(limiter.heldUntil("fast", now: start.addingTimeInterval(5)) == nil)
    #expect(limiter.heldUntil("slow", now: start) == nil)
  }

  @Test func throttlesInARowHoldAnAppLongerEachTimeUntilAppleAcceptsOne() {
    let limiter = RateLimiter()
    var now = start
    let holds = (0..<8).map { _ in
      let end = limiter.hold("app", until: now, now: now)
      defer { now = end }
      return end.timeIntervalSince(now)
    }
    #expect(holds == [1, 2, 4, 8, 16, 32, 60, 60])
    limiter.accepted("app")
    let later = now.addingTimeInterval(100)
    #expect(limiter.hold("app", until: later, now: later) == later.addingTimeInterval(1))
    let appleSays = later.addingTimeInterval(500)
    #expect(limiter.hold("app", until: appleSays, now: later) == appleSays)
  }

  /// 429s for sends already in flight when the first came are one throttle, not several in a
  /// row: eight parallel sends built a minute's hold out of Apple's one second.
  @Test func throttlesArrivingDuringAHoldDoNotLengthenTheFloor() {
    let limiter = RateLimiter()
    #expect(limiter.hold("app", until: start, now: start) == start.addingTimeInterval(1))
    var end = start
    for offset in [0.1, 0.2, 0.3] {
      let now = start.addingTimeInterval(offset)
      end = limiter.hold("app", until: start, now: now)
      #expect(end == now.addingTimeInterval(1), "the floor stays a second")
    }
    // The next throttle after the hold ended is the second in a row.
    #expect(limiter.hold("app", until: end, now: end) == end.addingTimeInterval(2))
  }

  /// A clock stepped back (NTP, an operator) moves the pacing slots back with it: the next
  /// slot was as far ahead as the step, and a send slept that long in it.
  @Test func aClockSteppedBackDoesNotPushTheNextSlotAsFarIntoTheFuture() {
    let limiter = RateLimiter()
    for _ in 0..<3 { _ = limiter.reserve("app", rate: 5, now: start) }
    let stepped = start.addingTimeInterval(-600)
    let slot = limiter.reserve("app", rate: 5, now: stepped)
    #expect(slot.timeIntervalSince(stepped) < 1, "\(slot.timeIntervalSince(stepped)) s ahead")
    // A clock read a moment apart by another send is no step.
    let next = limiter.reserve("app", rate: 5, now: slot.addingTimeInterval(-0.5))
    #expect(abs(next.timeIntervalSince(slot) - 0.22) < 0.001)
  }
}
