import Foundation

/// Requests the stand-in answered, appended from its connection threads.
final class ArrivalLog: @unchecked Sendable {
  private let lock = NSLock()
  private var arrivals: [StandInOutageTests.Arrival] = []

  func append(_ arrival: StandInOutageTests.Arrival) { lock.withLock { arrivals.append(arrival) } }

  var all: [StandInOutageTests.Arrival] { lock.withLock { arrivals } }
}
