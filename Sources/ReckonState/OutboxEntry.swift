import Foundation

/// One reply waiting to reach Apple, as a state machine: events (`poll`, `delivered`, operator
/// commands) change `state` and return an `OutboxAction` that the I/O layer (`OutboxSender`,
/// `SQLiteStateStore`) carries out. The entry itself does no I/O.
public struct OutboxEntry: Hashable, Sendable {
  /// The entry's id in the state database.
  public let id: Int64
  /// The decision that produced it.
  public let decisionId: Int64
  /// The request it answers.
  public let requestId: Int64
  /// The app (bundle and environment) it is sent for; pacing and pauses are per app.
  public let app: AppKey
  /// The transaction in the URL.
  public let transactionId: String
  /// What validation needs to know about the transaction.
  public let context: BodyContext
  /// The exact bytes to send; validated again before every send.
  public package(set) var body: Data
  /// Apple's deadline: received + 12 hours (5 minutes in the sandbox). Nothing is sent at or
  /// after it.
  public let deadline: Date
  /// Where the entry is.
  public package(set) var state: OutboxState
  /// Failed tries that count toward backoff: 5xx and network errors, and a 4xx that failed
  /// the entry once an operator retries it.
  public package(set) var attempts: Int
  /// Whether the entry still waits (held, pending or sending) at `now` with its deadline
  /// passed: no sender took it in time, and the next to look will expire it.
  public func isOverdue(at now: Date) -> Bool {
    !state.isFinal && deadline <= now
  }

  /// Failed tries, for people: those that set the backoff, and the 4xx answer that failed the
  /// entry for good (a failed entry showed none); a credentials pause is not the entry's fault.
  public var failedTries: Int {
    // Failed by Apple's answer, as that path words it; a failure of another kind (consent
    // withdrawn, a body that no longer validates) made no try, whatever the last status was.
    guard case .failed(_, let reason) = state, reason.hasPrefix("HTTP 4") else { return attempts }
    return attempts + 1
  }

  /// Sends found unfinished after a crash, each of which may have reached Apple.
  public package(set) var interruptedSends: Int
  /// The last HTTP status, if any.
  public package(set) var lastStatus: Int?
  /// The last error, as a sentence.
  public package(set) var lastError: String?
  /// The stored revision this copy was read at; a save from a stale copy is refused.
  public package(set) var revision: Int64
  /// When the entry was made (and, for a held entry, held: entries are held only when made);
  /// nil for an entry not read from the state database.
  public let createdAt: Date?

  /// A new entry; `hold` keeps it for review until `releaseAt`.
  public init(
    id: Int64, decisionId: Int64, requestId: Int64, app: AppKey, transactionId: String,
    context: BodyContext, body: Data, deadline: Date, state: OutboxState,
    attempts: Int = 0, interruptedSends: Int = 0, lastStatus: Int? = nil, lastError: String? = nil,
    revision: Int64 = 0, createdAt: Date? = nil
  ) {
    self.id = id
    self.decisionId = decisionId
    self.requestId = requestId
    self.app = app
    self.transactionId = transactionId
    self.context = context
    self.body = body
    self.deadline = deadline
    self.state = state
    self.attempts = attempts
    self.interruptedSends = interruptedSends
    self.lastStatus = lastStatus
    self.lastError = lastError
    self.revision = revision
    self.createdAt = createdAt
  }

  /// When the entry next needs attention, or nil when final.
  public var nextWake: Date? {
    switch state {
    case .held(let releaseAt): min(releaseAt, deadline)
    case .pending(let notBefore): min(notBefore, deadline)
    case .sending: nil
    case .sent, .failed, .expired, .dropped: nil
    }
  }
}
