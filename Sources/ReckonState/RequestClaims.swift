import Foundation

/// The requests being decided in this process right now, so a request is never decided twice
/// at once (a retry pass and a fresh copy cannot both take it): what a backend whose state has
/// one writing process keeps for its `RequestClaiming`.
public final class RequestClaims: @unchecked Sendable {
  private let lock = NSLock()
  private var claimed: Set<Int64> = []

  /// No request claimed.
  public init() {}

  /// Claims `id`; false when it is claimed already.
  public func claim(_ id: Int64) -> Bool { lock.withLock { claimed.insert(id).inserted } }

  /// Gives up the claim on `id`.
  public func release(_ id: Int64) { _ = lock.withLock { claimed.remove(id) } }
}
