import Foundation
import ReckonSupport

/// One request waiting for or running on a curl worker, and the caller waiting for its result.
/// The result is delivered once: cancelling answers the caller at once and the worker's later
/// result, if any, is dropped.
final class CurlJob: @unchecked Sendable {
  typealias Outcome = Result<HTTPClientResponse, HTTPTransportError>

  let request: HTTPClientRequest
  private let lock = NSLock()
  private var cancelled = false
  private var continuation: CheckedContinuation<Outcome, Never>?

  init(request: HTTPClientRequest) { self.request = request }

  /// Whether the caller gave up; the progress callback polls it to abort a running transfer.
  var isCancelled: Bool { lock.withLock { cancelled } }

  /// Registers the waiting caller; false when the task was cancelled first (and is answered).
  func start(_ continuation: CheckedContinuation<Outcome, Never>) -> Bool {
    let alreadyCancelled = lock.withLock {
      if !cancelled { self.continuation = continuation }
      return cancelled
    }
    if alreadyCancelled { continuation.resume(returning: .failure(.cancelled)) }
    return !alreadyCancelled
  }

  /// Marks the job cancelled and answers the caller now.
  func cancel() {
    let waiting = lock.withLock {
      cancelled = true
      defer { continuation = nil }
      return continuation
    }
    waiting?.resume(returning: .failure(.cancelled))
  }

  /// Answers the caller unless it was answered already.
  func finish(_ outcome: Outcome) {
    let waiting = lock.withLock {
      defer { continuation = nil }
      return continuation
    }
    waiting?.resume(returning: outcome)
  }
}
