import Dispatch

/// Runs blocking benchmark work (socket clients, sleeps) on a GCD thread, so it never holds one
/// of the cooperative pool's threads that the server under test needs.
func offPool<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
  try await withCheckedThrowingContinuation { continuation in
    DispatchQueue.global().async { continuation.resume(with: Result { try work() }) }
  }
}
