import Foundation
import ReckonStandIn

/// `reckon standin --answer STATUS [--times N]`: Apple's answer in trouble, for the first N
/// requests that pass the stand-in's checks (every one without N), then the stand-in's own.
final class FaultAnswers: @unchecked Sendable {
  /// The statuses it can answer with.
  static let statuses: Set<Int> = [429, 500, 401, 404]

  private let status: Int
  private let lock = NSLock()
  private var remaining: Int?

  init(_ status: Int, times: Int?) {
    self.status = status
    remaining = times
  }

  /// The answer to the next request, nil once `times` are used up.
  var next: @Sendable (StandInRequest) -> StandInReply? {
    { [self] _ in
      let answers = lock.withLock { () -> Bool in
        guard let left = remaining else { return true }
        guard left > 0 else { return false }
        remaining = left - 1
        return true
      }
      return answers ? reply() : nil
    }
  }

  private func reply() -> StandInReply {
    switch status {
    case 429: .rateLimited(retryAfter: Date().addingTimeInterval(5))
    case 401: .unauthorized
    case 404: .notFound
    default: .serverError
    }
  }
}
