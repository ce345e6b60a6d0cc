import Synchronization

/// The log contexts of the requests recorded lately, by recorded request id: a retry of an
/// undecided request and the sends of its reply log under the request's id. Kept in memory, at
/// most `capacity` (the oldest go first), so after a restart, past that many, or for a reply
/// another instance sends, those lines carry what the entry itself names instead.
public final class RequestLogBook: Sendable {
  private struct Shelf {
    var contexts: [Int64: RequestLogContext] = [:]
    var order: [Int64] = []
    var oldest = 0
  }

  private let shelf = Mutex(Shelf())
  /// How many contexts are kept.
  public let capacity: Int

  /// A book keeping the last `capacity` contexts.
  public init(capacity: Int = 16_384) {
    self.capacity = max(1, capacity)
  }

  /// Keeps `context` for request `requestId` unless one is kept for it already; the one kept.
  @discardableResult
  public func keep(_ context: RequestLogContext, for requestId: Int64) -> RequestLogContext {
    shelf.withLock { shelf in
      // The first stays: a retry pass may have taken up the request, and logged under its
      // context, between the request's recording and its own keep.
      if let kept = shelf.contexts[requestId] { return kept }
      shelf.contexts[requestId] = context
      shelf.order.append(requestId)
      if shelf.order.count - shelf.oldest > capacity {
        shelf.contexts[shelf.order[shelf.oldest]] = nil
        shelf.oldest += 1
        // Compacted now and then, so the order does not grow with every request ever kept.
        if shelf.oldest >= capacity {
          shelf.order.removeFirst(shelf.oldest)
          shelf.oldest = 0
        }
      }
      return context
    }
  }

  /// The context kept for request `requestId`, if any.
  public func context(for requestId: Int64) -> RequestLogContext? {
    shelf.withLock { $0.contexts[requestId] }
  }
}
