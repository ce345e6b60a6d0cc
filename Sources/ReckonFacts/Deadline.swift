import Foundation

/// Runs async work with a time limit that holds even when the work ignores cancellation (a
/// blocked database call, say): at the limit the caller gets `Deadline.Expired` at once, the work
/// is cancelled and left to finish on its own.
public enum Deadline {
  /// The work did not finish in time.
  public struct Expired: Error, Hashable, Sendable {}

  /// The work's result, or `Expired` after `limit`.
  public static func run<T: Sendable>(
    within limit: Duration, _ work: @escaping @Sendable () async throws -> T
  ) async throws -> T {
    let gate = ResumeGate<T>()
    return try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { continuation in
        gate.install(continuation)
        gate.track(
          Task {
            do { gate.resume(with: .success(try await work())) } catch {
              gate.resume(with: .failure(error))
            }
          })
        gate.track(
          Task {
            try? await Task.sleep(for: limit)
            gate.resume(with: .failure(Expired()))
          })
      }
    } onCancel: {
      gate.resume(with: .failure(CancellationError()))
    }
  }
}

/// Resumes a continuation exactly once, with whichever result comes first, and then cancels the
/// tasks racing for it.
private final class ResumeGate<T: Sendable>: @unchecked Sendable {
  private let lock = NSLock()
  private var continuation: CheckedContinuation<T, any Error>?
  private var early: Result<T, any Error>?
  private var finished = false
  private var tasks: [Task<Void, Never>] = []

  func install(_ continuation: CheckedContinuation<T, any Error>) {
    lock.lock()
    if let early {
      lock.unlock()
      continuation.resume(with: early)
      return
    }
    self.continuation = continuation
    lock.unlock()
  }

  func track(_ task: Task<Void, Never>) {
    lock.lock()
    let cancelNow = finished
    if !cancelNow { tasks.append(task) }
    lock.unlock()
    if cancelNow { task.cancel() }
  }

  func resume(with result: Result<T, any Error>) {
    lock.lock()
    guard !finished else {
      lock.unlock()
      return
    }
    finished = true
    let continuation = self.continuation
    self.continuation = nil
    if continuation == nil { early = result }
    let racing = tasks
    tasks = []
    lock.unlock()
    continuation?.resume(with: result)
    for task in racing { task.cancel() }
  }
}
