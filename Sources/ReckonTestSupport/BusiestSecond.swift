import Foundation

/// The most of `times` that fall within any one second, counted from each time on: how a
/// receiver that limits a rate per second would see them, whatever its windows' alignment.
public func busiestSecond(_ times: [Date]) -> Int {
  let sorted = times.sorted()
  var busiest = 0
  var end = 0
  for start in sorted.indices {
    while end < sorted.count, sorted[end] < sorted[start].addingTimeInterval(1) { end += 1 }
    busiest = max(busiest, end - start)
  }
  return busiest
}
