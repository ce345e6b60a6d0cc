import Foundation
import ReckonState

/// What `/healthz` and `/metrics` show of the state, read on a thread of its own every
/// `interval` seconds instead of on each request: the reads count the outbox and the undecided
/// requests, which on a large state takes long enough that pollers answered from the state
/// itself would queue the webhook behind them.
public final class StateGaugeCache: @unchecked Sendable {
  /// The last read: the gauges, or why they could not be read, and when.
  public struct Reading: Sendable {
    /// The gauges, nil when the read failed.
    public let gauges: StateGauges?
    /// Why the read failed, for the log.
    public let problem: String?
    /// When the read finished.
    public let readAt: Date
  }

  private let read: @Sendable (Date) throws -> StateGauges
  private let lock = NSLock()
  private var last: Reading
  private var refreshing = false

  /// A cache over `read`, empty until the first `refresh()`.
  public init(read: @escaping @Sendable (Date) throws -> StateGauges) {
    self.read = read
    last = Reading(gauges: nil, problem: "not read yet", readAt: .distantPast)
  }

  /// A cache over `store`'s gauges.
  public convenience init(store: any StateStore) {
    self.init(read: { now in try store.gauges(now: now) })
  }

  /// The last reading, at once.
  public var current: Reading { lock.withLock { last } }

  /// Reads the gauges now, on the calling thread; a call while another reads returns at once.
  public func refresh() {
    let begin = lock.withLock { () -> Bool in
      defer { refreshing = true }
      return !refreshing
    }
    guard begin else { return }
    let reading: Reading
    do {
      let gauges = try read(Date())
      reading = Reading(gauges: gauges, problem: nil, readAt: Date())
    } catch {
      reading = Reading(gauges: nil, problem: "\(error)", readAt: Date())
    }
    lock.withLock {
      last = reading
      refreshing = false
    }
  }

  /// Whether the last reading is older than `limit` seconds at `now`: the read is stuck (a
  /// database that stopped answering without closing the connection).
  public func isStale(now: Date, limit: TimeInterval) -> Bool {
    now.timeIntervalSince(current.readAt) > limit
  }
}
