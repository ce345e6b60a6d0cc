import Foundation
import ReckonFacts
import ReckonPolicy

/// A configured fact source whose file could not be read at start-up (missing, not readable,
/// locked): each lookup tries to open it again and, until one succeeds, fails with why, so the
/// request is kept undecided or the reply waits, as for any failed source. Once opened it is the
/// source itself. Until then it may supply any adapter fact (`suppliableFacts` is nil): what its
/// columns are is known only from its file.
final class DeferredOpenFactSource: FactSource, @unchecked Sendable {
  let name: String
  private let open: FactSourceSetup.Opener
  /// Where open attempts run: a serial queue of its own, which GCD gives a thread outside the
  /// Swift concurrency pool. One attempt at a time is all it ever holds.
  private let queue: DispatchQueue
  private let lock = NSLock()
  private var opened: (any FactSource)?
  private var opening = false
  private var problem: ConfigurationError

  /// A source named `name` that `open` failed to open with `problem`.
  init(name: String, problem: ConfigurationError, open: @escaping FactSourceSetup.Opener) {
    self.name = name
    self.problem = problem
    self.open = open
    queue = DispatchQueue(label: "reckon.fact-source.open.\(name)")
  }

  /// The opened source's facts, nil (any adapter fact) until it opens.
  var suppliableFacts: Set<String>? {
    lock.withLock { opened }?.suppliableFacts
  }

  /// The facts of the opened source, opening it first if it is not yet.
  func facts(for keys: RequestKeys) async throws -> [String: Value] {
    try await source().facts(for: keys)
  }

  /// The opened source, opening it now; throws why it cannot be. One lookup at a time tries to
  /// open it (a locked file can take the busy timeout): the others fail at once with the last
  /// problem rather than each waiting. The attempt runs on `opening`'s own thread, not on the
  /// cooperative pool, so an open that waits out a long busy timeout holds none of its few
  /// threads: the layer's timeout answers the lookup, and other work goes on meanwhile.
  func source() async throws(ConfigurationError) -> any FactSource {
    let state: (source: (any FactSource)?, tryNow: Bool, problem: ConfigurationError) =
      lock.withLock {
        if let opened { return (opened, false, problem) }
        guard !opening else { return (nil, false, problem) }
        opening = true
        return (nil, true, problem)
      }
    if let source = state.source { return source }
    guard state.tryNow else { throw state.problem }
    let result = await attempt()
    lock.withLock {
      opening = false
      switch result {
      case .success(let source): opened = source
      case .failure(let failure): problem = failure.problem
      }
    }
    do { return try result.get() } catch { throw error.problem }
  }

  /// One open attempt, run on `queue` and awaited without blocking the caller's thread.
  private func attempt() async -> Result<any FactSource, FactSourceSetup.OpenFailure> {
    await withCheckedContinuation { continuation in
      queue.async { [open] in
        continuation.resume(
          returning: Result { () throws(FactSourceSetup.OpenFailure) in try open() })
      }
    }
  }
}
