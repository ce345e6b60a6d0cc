import Foundation
import ReckonGooglePlay
import ReckonState
import ReckonSupport

/// Something the sender reports; `OutboxSender` hands each one to its event handler (the CLI
/// prints them as JSON lines). Expiry and credentials problems are errors: an operator must look.
public enum SenderEvent: Hashable, Sendable, CustomStringConvertible {
  /// Apple accepted an entry.
  case sent(entry: Int64, transactionId: String, status: Int)
  /// An entry will be tried again.
  case retrying(entry: Int64, transactionId: String, at: Date, reason: String, status: Int?)
  /// Apple refused an entry for good, or its body no longer validates.
  case failed(entry: Int64, transactionId: String, reason: String, status: Int?)
  /// An entry's deadline passed with no send accepted; `maybeSent` when a send interrupted by a
  /// crash may have reached Apple all the same.
  case expired(entry: Int64, transactionId: String, deadline: Date, maybeSent: Bool)
  /// An app's sending is paused: its key, issuer or bundle is wrong.
  case credentialsProblem(app: AppKey, reason: String, until: Date)
  /// Apple said to slow down.
  case throttled(app: AppKey, until: Date)
  /// Sends found unfinished after a crash: App Store replies go out again; the `googlePlay`
  /// of them are Google Play answers that may have gone, failed rather than sent again.
  case recoveredInterrupted(count: Int, googlePlay: Int)
  /// The state database refused a read or write; sending waits and tries again.
  case databaseProblem(reason: String)
  /// The state database answers again, `after` seconds; sending resumes.
  case databaseRecovered(after: TimeInterval)
  /// Another sender holds the sender lease `lock`: this one stands by until it is free.
  case standingBy(lock: String)
  /// A standby took the sender lease `lock`: it sends from now on.
  case tookOver(lock: String)

  /// `error`, `warning` or `info`.
  public var level: String {
    switch self {
    case .expired, .credentialsProblem, .failed, .databaseProblem: "error"
    case .retrying, .throttled, .recoveredInterrupted: "warning"
    case .sent, .databaseRecovered, .standingBy, .tookOver: "info"
    }
  }

  /// One sentence for a log.
  public var description: String {
    switch self {
    case .sent(let entry, let transaction, let status):
      "entry \(entry) sent for transaction \(transaction): HTTP \(status)"
    case .retrying(let entry, _, let at, let reason, _):
      "entry \(entry) will be retried at \(Self.time(at)): \(reason)"
    case .failed(let entry, _, let reason, _):
      "entry \(entry) FAILED and will not be retried: \(reason)"
    case .expired(let entry, let transaction, let deadline, false):
      "entry \(entry) EXPIRED unsent: transaction \(transaction) could not be delivered before the store's deadline \(Self.time(deadline))"
    case .expired(let entry, let transaction, let deadline, true):
      "entry \(entry) EXPIRED: transaction \(transaction) passed the store's deadline \(Self.time(deadline)) with no send confirmed; a send interrupted by a crash may have reached the store"
    case .credentialsProblem(let app, let reason, let until):
      "CREDENTIALS PROBLEM for \(app): \(reason); its sending is paused until \(Self.time(until)): "
        + Self.credentialsCheck(app)
    case .throttled(let app, let until):
      "\(Self.storeName(app)) rate-limited \(app) until \(Self.time(until))"
    case .recoveredInterrupted(let count, 0):
      "\(count) send(s) interrupted by a crash will be sent again"
    case .recoveredInterrupted(let count, let googlePlay) where googlePlay == count:
      "\(count) Google Play answer(s) interrupted by a crash may have reached Google: failed, "
        + "not sent again on their own"
    case .recoveredInterrupted(let count, let googlePlay):
      "\(count) send(s) interrupted by a crash: \(count - googlePlay) will be sent again, and "
        + "\(googlePlay) Google Play answer(s), which may have reached Google, are failed, not "
        + "sent again on their own"
    case .databaseProblem(let reason):
      "STATE DATABASE PROBLEM: \(reason); nothing is sent until it can be written, then sending resumes"
    case .databaseRecovered(let after):
      "the state database answers again after \(Int(after.rounded())) s; sending resumes"
    case .standingBy(let lock):
      "another sender holds \(lock): this one stands by and sends once it is free"
    case .tookOver(let lock): "took the sender lease \(lock): this one sends from now on"
    }
  }

  /// Who answers `app`'s sends: `Apple` or `Google Play`.
  public static func storeName(_ app: AppKey) -> String {
    app.environment == GooglePlayStore.environment ? "Google Play" : "Apple"
  }

  /// What to check when `app`'s store refuses its credentials, as a clause:
  /// `check the key, issuer id and bundle id (reckon keys check)`.
  public static func credentialsCheck(_ app: AppKey) -> String {
    app.environment == GooglePlayStore.environment
      ? "check the service account key and the account's access to the app in Play Console "
        + "(reckon doctor --config)"
      : "check the key, issuer id and bundle id (reckon keys check)"
  }

  /// Fields a log line carries besides the message: the entry, transaction, app and status a
  /// message names; numbers as JSON numbers.
  public var fields: [String: JSONValue] {
    switch self {
    case .sent(let entry, let transaction, let status):
      return [
        "entryId": .int(entry), "transactionId": .string(transaction), "status": .int(status),
      ]
    // The transaction and Apple's status on every line of an entry's life, so one
    // transaction's history is one filter.
    case .retrying(let entry, let transaction, let at, _, let status):
      var fields: [String: JSONValue] = [
        "entryId": .int(entry), "transactionId": .string(transaction),
        "retryAt": .string(Self.time(at)),
      ]
      fields["status"] = status.map(JSONValue.int)
      return fields
    case .failed(let entry, let transaction, _, let status):
      var fields: [String: JSONValue] = [
        "entryId": .int(entry), "transactionId": .string(transaction),
      ]
      fields["status"] = status.map(JSONValue.int)
      return fields
    case .expired(let entry, let transaction, let deadline, _):
      return [
        "entryId": .int(entry), "transactionId": .string(transaction),
        "deadline": .string(Self.time(deadline)),
      ]
    case .credentialsProblem(let app, _, let until), .throttled(let app, let until):
      return [
        "app": .string(app.bundleId), "environment": .string(app.environment),
        "until": .string(Self.time(until)),
      ]
    case .recoveredInterrupted(let count, let googlePlay):
      return ["count": .int(count), "googlePlay": .int(googlePlay)]
    case .standingBy(let lock), .tookOver(let lock): return ["lock": .string(lock)]
    case .databaseProblem, .databaseRecovered: return [:]
    }
  }

  /// A time as the sender's messages write it (ISO 8601, UTC), for whoever words one.
  static func time(_ date: Date) -> String { date.formatted(.iso8601) }
}
