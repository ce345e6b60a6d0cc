import Foundation

/// What the stores' rules tell every backend about the notifications it records: which types
/// ask for a reply, and how long each environment gives for one. The stores' modules supply
/// them, as the language is handed its vocabulary, so no backend spells a store's words.
public struct ReplyRules: Hashable, Sendable {
  /// The notification types that ask for a reply; only a request of one of them is answered,
  /// repeated or counted as undecided.
  public var requestTypes: Set<String>
  /// The reply window of each environment.
  public var windows: [String: TimeInterval]
  /// The window of an environment `windows` does not name.
  public var otherWindow: TimeInterval

  /// Rules from their parts.
  public init(
    requestTypes: Set<String>, windows: [String: TimeInterval],
    otherWindow: TimeInterval
  ) {
    self.requestTypes = requestTypes
    self.windows = windows
    self.otherWindow = otherWindow
  }

  /// The rules of a store with one type of request.
  public init(requestType: String, windows: [String: TimeInterval], otherWindow: TimeInterval) {
    self.init(requestTypes: [requestType], windows: windows, otherWindow: otherWindow)
  }

  /// The rules of this store and `other` together, for a state that records both: each
  /// store's request types ask, each environment keeps its window. Environments are the
  /// stores' own names, so none is in both.
  public func combined(with other: ReplyRules) -> ReplyRules {
    ReplyRules(
      requestTypes: requestTypes.union(other.requestTypes),
      windows: windows.merging(other.windows) { max($0, $1) },
      otherWindow: max(otherWindow, other.otherWindow))
  }

  /// The request types as an SQL list of string literals, for `notification_type IN (…)`.
  public var requestTypesSQL: String {
    requestTypes.sorted().map { "'" + $0.replacingOccurrences(of: "'", with: "''") + "'" }
      .joined(separator: ", ")
  }

  /// How long ago a request still before its deadline can have been received: a backend looks
  /// for open requests no further back than this.
  public var longestWindow: TimeInterval { max(windows.values.max() ?? 0, otherWindow) }

  /// The reply window of `environment`.
  public func window(environment: String) -> TimeInterval {
    windows[environment] ?? otherWindow
  }

  /// Whether `record` asks for a reply: only such a one can repeat an earlier request, or make
  /// an imported copy of itself live.
  public func asksForReply(_ record: NotificationRecord) -> Bool {
    requestTypes.contains(record.notificationType)
  }

  /// The reply deadline of `record`: its environment's window counted from when the store first
  /// sent it (its signed date, which retries keep), or from its receipt when that is earlier
  /// (our clock behind the store's).
  public func deadline(of record: NotificationRecord) -> Date {
    min(record.receivedAt, record.signedDate ?? record.receivedAt)
      .addingTimeInterval(window(environment: record.environment))
  }

  /// When the store first sent the request of `environment` whose deadline is `deadline`: its
  /// verdict on that request counts from then.
  public func requestOpened(deadline: Date, environment: String) -> Date {
    deadline.addingTimeInterval(-window(environment: environment))
  }
}
