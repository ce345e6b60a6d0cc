import ReckonEngine

/// Why a dry-run, report or import could not run; each case names the file, line or key.
public enum DryRunError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The requests file could not be read.
  case unreadable(path: String, reason: String)
  /// A line is not a notification Reckon can read.
  case badLine(path: String, line: Int, reason: String)
  /// A signed line failed verification.
  case unverified(path: String, line: Int, reason: String)
  /// Signed lines need `--config` for the trusted roots.
  case signedWithoutTrust(path: String, line: Int)
  /// A stored request could not be read back.
  case badStoredRequest(id: Int64, reason: String)
  /// A fact source failed in a way that stops the whole run.
  case factsFailed(String)
  /// The bulk query and the per-request queries disagree.
  case bulkQueryDisagrees(transactionId: String, fact: String, bulk: String, perRequest: String)
  /// A date option could not be read.
  case badDate(String)
  /// A date option gave a time before 1970, older than anything a state holds.
  case dateBefore1970(String)
  /// A date option gave a time of day but no zone, which could be read several ways.
  case dateWithoutTimeZone(String)

  /// Whether the error is about one line of a requests file that cannot be read (not JSON, not a
  /// notification, a signature that does not verify), which `--skip-bad-lines` leaves out; a
  /// missing trust configuration or an unreadable file is not, as it would fail every line.
  public var isUnreadableLine: Bool {
    switch self {
    case .badLine, .unverified: true
    default: false
    }
  }

  /// The line the error is about, if it is about one.
  var line: Int? {
    switch self {
    case .badLine(_, let line, _), .unverified(_, let line, _), .signedWithoutTrust(_, let line):
      line
    default: nil
    }
  }

  /// One sentence saying what and where.
  public var description: String {
    switch self {
    case .unreadable(let path, let reason): "\(path): \(reason)"
    case .badLine(let path, let line, let reason): "\(path):\(line): \(reason)"
    case .unverified(let path, let line, let reason):
      "\(path):\(line): the signed notification does not verify: \(reason)"
    case .signedWithoutTrust(let path, let line):
      "\(path):\(line): the line is a signedPayload; give --config so it can be verified against the configured roots"
    case .badStoredRequest(let id, let reason): "state database request \(id): \(reason)"
    case .factsFailed(let reason): "facts could not be read: \(reason)"
    case .bulkQueryDisagrees(let transaction, let fact, let bulk, let perRequest):
      "bulkQuery disagrees with the per-request queries for transaction \(transaction): \(fact) is \(bulk) in bulk, \(perRequest) per request; "
        + "make them find the same rows (e.g. the customer through the purchase, not the appAccountToken), or remove bulkQuery to ask each request on its own"
    case .badDate(let text):
      "'\(text)' is not a date; write 2026-11-01 (a whole UTC day) or 2026-11-01T09:30:00Z"
    case .dateBefore1970(let text):
      "'\(text)' is before 1970, older than anything Reckon records; give a later date"
    case .dateWithoutTimeZone(let text):
      "'\(text)' has no time zone; add one, as in \(text)Z (UTC) or \(text)+01:00"
    }
  }
}
