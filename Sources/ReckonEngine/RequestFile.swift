import Foundation
import ReckonAppStore
import ReckonFacts
import ReckonSupport

/// Reads a CONSUMPTION_REQUEST from a JSON file in Apple's decoded-notification shape, with the
/// transaction decoded in place of `signedTransactionInfo`, as `reckon eval` and dry-runs take it.
public enum RequestFile {
  /// Why a request file could not be used.
  public enum Failure: Error, Hashable, Sendable, CustomStringConvertible {
    case unreadable(path: String, reason: String)
    /// The whole file is not JSON; `place` is `PATH:LINE:COLUMN`, `excerpt` its line with a caret.
    case notJSON(place: String, reason: String, excerpt: String?)
    case malformed(path: String, reason: String)
    case notAConsumptionRequest(path: String, type: String)
    case signedTransaction(path: String)
    /// A webhook body `{"signedPayload": …}`, with nothing given to verify it.
    case signedWithoutTrust(path: String)
    /// A webhook body that does not verify.
    case unverified(path: String, reason: String)

    /// A sentence naming the file and the problem.
    public var description: String {
      switch self {
      case .notJSON(let place, let reason, let excerpt):
        JSONParseError.sentence(place: place, reason: reason, excerpt: excerpt)
      case .unreadable(let path, _), .malformed(let path, _), .notAConsumptionRequest(let path, _),
        .signedTransaction(let path), .signedWithoutTrust(let path), .unverified(let path, _):
        "\(path): \(problem)"
      }
    }

    /// The problem without the file's name, for messages that name the file themselves.
    public var problem: String {
      switch self {
      case .unreadable(_, let reason): reason
      case .notJSON(_, let reason, _): "is not valid JSON: \(reason)"
      case .malformed(_, let reason): reason
      case .notAConsumptionRequest(_, let type):
        "this is a \(type) notification, not a CONSUMPTION_REQUEST"
      case .signedTransaction:
        "data.signedTransactionInfo is still signed; give the decoded transaction object in its place"
      case .signedWithoutTrust:
        "this is a signed notification body ({\"signedPayload\": …}) as Apple posts it; give --config so it is verified against the configured roots, or give the decoded payload"
      case .unverified(_, let reason): "the signed notification does not verify: \(reason)"
      }
    }
  }

  /// Reads the request at `path`; its receive time is `now`, or else the notification's
  /// `signedDate`. A webhook body `{"signedPayload": …}` is verified by the verifier `verifier`
  /// makes (asked for only then), and refused without one.
  public static func load(
    path: String, now: Date? = nil,
    verifier: (() throws(Failure) -> NotificationVerifier)? = nil
  ) throws(Failure) -> RefundRequest {
    let data: Data
    do throws(LocalFileError) { data = try LocalFile.json(at: path) } catch {
      throw .unreadable(path: path, reason: error.reason)
    }
    // A whole file is placed at its line and column, as reckon.json and facts files are; a line
    // of a requests file (`decode`) is named by its line already.
    let parsed: JSONValue
    do { parsed = try JSONValue.parse(data) } catch {
      throw .notJSON(
        place: error.place(in: data, path: path), reason: error.reason,
        excerpt: error.excerpt(in: data))
    }
    // `eval --request` given the facts file: the two options swapped.
    if let root = parsed.objectValue, looksLikeFacts(root) {
      throw .malformed(
        path: path,
        reason: "this looks like facts (fact names and values), not a request (an App Store "
          + "notification); pass it with --facts")
    }
    if case .string(let signed)? = parsed.objectValue?["signedPayload"] {
      guard let verifier else { throw .signedWithoutTrust(path: path) }
      return try verify(signed, with: try verifier(), path: path, now: now)
    }
    return try decode(parsed, path: path, now: now)
  }

  private static func verify(
    _ signed: String, with verifier: NotificationVerifier, path: String, now: Date?
  ) throws(Failure) -> RefundRequest {
    let verified: VerifiedNotification
    do { verified = try verifier.verifyNamingType(signedPayload: signed) } catch {
      throw .unverified(path: path, reason: error.failure.description)
    }
    guard verified.payload.notificationType == .consumptionRequest else {
      throw .notAConsumptionRequest(
        path: path, type: verified.payload.rawNotificationType ?? "unnamed")
    }
    guard let request = RefundRequest(verified, receivedAt: now) else {
      throw .malformed(path: path, reason: "the notification has no transaction or signedDate")
    }
    return request
  }

  /// Decodes a request from JSON bytes; `path` names it in errors.
  public static func decode(_ data: Data, path: String, now: Date? = nil) throws(Failure)
    -> RefundRequest
  {
    let parsed: JSONValue
    do { parsed = try JSONValue.parse(data) } catch {
      throw .malformed(path: path, reason: "not valid JSON: \(error.description)")
    }
    return try decode(parsed, path: path, now: now)
  }

  /// Whether `root` holds fact names and values (`usage.consumed`) and no notification type.
  private static func looksLikeFacts(_ root: [String: JSONValue]) -> Bool {
    root["notificationType"] == nil && root.keys.contains { $0.contains(".") }
  }

  /// Decodes a request from parsed JSON; `path` names it in errors.
  private static func decode(_ parsed: JSONValue, path: String, now: Date?) throws(Failure)
    -> RefundRequest
  {
    guard var root = parsed.objectValue else {
      throw .malformed(path: path, reason: "expected a JSON object in Apple's notification shape")
    }
    if looksLikeFacts(root) {
      throw .malformed(
        path: path,
        reason: "this looks like facts (fact names and values), not a request (an App Store "
          + "notification)")
    }
    guard var body = root["data"]?.objectValue else {
      throw .malformed(path: path, reason: "the notification has no 'data' object")
    }
    let transactionJSON: JSONValue
    switch body["signedTransactionInfo"] ?? body["transactionInfo"] {
    case .object(let transaction)?: transactionJSON = .object(transaction)
    case .string?: throw .signedTransaction(path: path)
    default:
      throw .malformed(
        path: path, reason: "data.signedTransactionInfo must hold the decoded transaction")
    }
    body["signedTransactionInfo"] = nil
    body["transactionInfo"] = nil
    root["data"] = .object(body)
    let notification: ResponseBodyV2DecodedPayload
    let transaction: JWSTransactionDecodedPayload
    let decoder = AppStoreJSON.decoder()
    do {
      notification = try decoder.decode(
        ResponseBodyV2DecodedPayload.self, from: try JSONEncoder().encode(JSONValue.object(root)))
    } catch {
      throw .malformed(
        path: path,
        reason: "does not match Apple's notification shape: \(AppStoreJSON.describe(error))")
    }
    do {
      transaction = try decoder.decode(
        JWSTransactionDecodedPayload.self, from: try JSONEncoder().encode(transactionJSON))
    } catch {
      throw .malformed(
        path: path,
        reason:
          "does not match Apple's notification shape: data.signedTransactionInfo.\(AppStoreJSON.describe(error))"
      )
    }
    guard notification.notificationType == .consumptionRequest else {
      throw .notAConsumptionRequest(path: path, type: notification.rawNotificationType ?? "untyped")
    }
    guard let receivedAt = now ?? notification.signedDate else {
      throw .malformed(
        path: path, reason: "the notification has no signedDate; give the receive time with --now")
    }
    return RefundRequest(
      notification: notification, transaction: transaction, receivedAt: receivedAt)
  }
}
