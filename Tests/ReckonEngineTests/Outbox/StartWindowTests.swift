import Foundation
import ReckonTestSupport
import Testing

@testable import ReckonEngine

/// Sends whose slots came while their threads could not run start together late; the window
/// admits them only as a second's room allows.
struct StartWindowTests {
  @Test func sendsArrivingTogetherAreAdmittedNoMoreThanTheRateInAnySecond() async throws {
    let clock = SimulatedClock(start: Date(timeIntervalSince1970: 1_800_000_000))
    let window = StartWindow()
    var admitted: [Date] = []
    for _ in 0..<120 {
      admitted.append(
        try #require(await window.admit("app", rate: 50, clock: clock, isStopped: { false })))
    }
    #expect(busiestSecond(admitted) == 50)
    // The first fifty at once, then each as the one fifty before it leaves the window.
    #expect(admitted[49] == admitted[0])
    #expect(admitted[50] == admitted[0].addingTimeInterval(1))
  }

  @Test func appsHaveWindowsOfTheirOwn() async throws {
    let clock = SimulatedClock(start: Date(timeIntervalSince1970: 1_800_000_000))
    let window = StartWindow()
    let start = clock.now()
    for _ in 0..<5 {
      _ = await window.admit("a", rate: 5, clock: clock, isStopped: { false })
    }
    #expect(await window.admit("b", rate: 5, clock: clock, isStopped: { false }) == start)
    #expect(
      await window.admit("a", rate: 5, clock: clock, isStopped: { false })
        == start.addingTimeInterval(1))
  }

  @Test func aStopWhileWaitingForRoomAdmitsNothing() async throws {
    let clock = SimulatedClock(start: Date(timeIntervalSince1970: 1_800_000_000))
    let window = StartWindow()
    _ = await window.admit("a", rate: 1, clock: clock, isStopped: { false })
    #expect(await window.admit("a", rate: 1, clock: clock, isStopped: { true }) == nil)
  }

  /// Starts recorded before the clock stepped back lie in its future: they do not hold the
  /// window shut until the clock catches up with them.
  @Test func aClockSteppedBackDoesNotCloseTheWindow() async throws {
    let clock = SimulatedClock(start: Date(timeIntervalSince1970: 1_800_000_000))
    let window = StartWindow()
    _ = await window.admit("a", rate: 1, clock: clock, isStopped: { false })
    let earlier = SimulatedClock(start: clock.now().addingTimeInterval(-100))
    #expect(
      await window.admit("a", rate: 1, clock: earlier, isStopped: { false }) == earlier.now())
  }
}
