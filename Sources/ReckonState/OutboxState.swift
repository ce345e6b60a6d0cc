import Foundation

/// Where an outbox entry is in its life. `sent`, `failed`, `expired` and `dropped` are final.
public enum OutboxState: Hashable, Sendable, CustomStringConvertible {
  /// Held for review until approved, edited, or `releaseAt` (an hour before the deadline).
  case held(releaseAt: Date)
  /// Waiting to be sent at or after `notBefore`.
  case pending(notBefore: Date)
  /// Handed to the sender at `since`; found in this state after a crash, it is sent again.
  case sending(since: Date)
  /// Apple answered 2xx.
  case sent(at: Date)
  /// Apple refused it for good (400, 404, other 4xx) or the stored body no longer validates.
  case failed(at: Date, reason: String)
  /// The deadline passed before Apple accepted it.
  case expired(at: Date)
  /// An operator dropped it.
  case dropped(at: Date)

  /// The state's name as stored and shown: held, pending, sending, sent, failed, expired, dropped.
  public var name: String {
    switch self {
    case .held: "held"
    case .pending: "pending"
    case .sending: "sending"
    case .sent: "sent"
    case .failed: "failed"
    case .expired: "expired"
    case .dropped: "dropped"
    }
  }

  /// Every state's `name`, in the order of an entry's life.
  public static let names = [
    "held", "pending", "sending", "sent", "failed", "expired", "dropped",
  ]

  /// Whether nothing more will happen to the entry.
  public var isFinal: Bool {
    switch self {
    case .sent, .failed, .expired, .dropped: true
    case .held, .pending, .sending: false
    }
  }

  /// The time the state carries.
  public var time: Date {
    switch self {
    case .held(let date), .pending(let date), .sending(let date), .sent(let date),
      .expired(let date), .dropped(let date):
      date
    case .failed(let date, _): date
    }
  }

  /// The failure reason, if failed.
  public var reason: String? {
    if case .failed(_, let reason) = self { reason } else { nil }
  }

  /// `name` and its time.
  public var description: String { "\(name) \(time)" }

  /// Rebuilds a stored state.
  package init?(name: String, at time: Date, reason: String?) {
    switch name {
    case "held": self = .held(releaseAt: time)
    case "pending": self = .pending(notBefore: time)
    case "sending": self = .sending(since: time)
    case "sent": self = .sent(at: time)
    case "failed": self = .failed(at: time, reason: reason ?? "")
    case "expired": self = .expired(at: time)
    case "dropped": self = .dropped(at: time)
    default: return nil
    }
  }
}
