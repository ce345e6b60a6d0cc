import Foundation

/// What a store's rules tell every backend about the notifications it records: which type asks
/// for a reply, and how long each environment gives for one. The store's module supplies it, as
/// the language is handed its vocabulary, so no backend spells a store's words.
public struct ReplyRules: Hashable, Sendable {
  /// The notification type that asks for a reply; only a request of this type is answered,
  /// repeated or counted as undecided.
  public var requestType: String
  /// The reply window of each environment.
  public var windows: [String: TimeInterval]
  /// The window of an environment `windows` does not name.
  public var otherWindow: TimeInterval

  /// Rules from their parts.
  public init(
    requestType: String, windows: [String: TimeInterval],
    otherWindow: TimeInterval
  ) {
    self.requestType = requestType
    self.windows = windows
    self.otherWindow = otherWindow
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
    record.notificationType == requestType
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
