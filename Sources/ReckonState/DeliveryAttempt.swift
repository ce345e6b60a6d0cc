import Foundation

/// One try at sending an outbox entry, as recorded: when, what came back, and what it led to.
public struct DeliveryAttempt: Hashable, Sendable {
  /// The entry tried.
  public var entryId: Int64
  /// When the send started.
  public var startedAt: Date
  /// When the answer came, or nil if the send was interrupted by a crash.
  public var finishedAt: Date?
  /// The HTTP status, if there was an answer.
  public var httpStatus: Int?
  /// Apple's `errorCode`, kept raw even when unknown.
  public var errorCode: Int?
  /// Apple's `errorMessage`, or the network error.
  public var errorMessage: String?
  /// What the entry did next: sent, retry, throttled, credentials, failed, expired, interrupted.
  public var result: String

  /// Creates an attempt record.
  public init(
    entryId: Int64, startedAt: Date, finishedAt: Date?, httpStatus: Int?, errorCode: Int?,
    errorMessage: String?,
    result: String
  ) {
    self.entryId = entryId
    self.startedAt = startedAt
    self.finishedAt = finishedAt
    self.httpStatus = httpStatus
    self.errorCode = errorCode
    self.errorMessage = errorMessage
    self.result = result
  }
}
