import Foundation
import ReckonAppStore
import ReckonEngine
import ReckonState
import ReckonSupport

/// A request from history for a dry-run: the request (its receive time is the decision's `now`),
/// where it came from, and the facts recorded when it was decided, if there are any.
public struct PastRequest: Sendable {
  /// The request.
  public let request: RefundRequest
  /// `requests.jsonl:12` or `request 42`, for messages.
  public let origin: String
  /// The facts the decision was made on at the time, from the state database.
  public let recordedFacts: GatheredFacts?

  /// Creates a past request.
  public init(request: RefundRequest, origin: String, recordedFacts: GatheredFacts? = nil) {
    self.request = request
    self.origin = origin
    self.recordedFacts = recordedFacts
  }
}

/// What one line of a requests file holds.
enum RequestLine {
  /// A CONSUMPTION_REQUEST.
  case request(RefundRequest)
  /// Another notification, left out.
  case otherNotification
  /// Apple's verdict on a refund request (see `StoreVerdicts`): left out as another
  /// notification, and noted, as a request after it is a new one.
  case verdict(transactionId: String, environment: AppStoreEnvironment?, at: Date)
  /// A signed notification that verified but names an app the configuration does not list.
  case otherApp
  /// A Google Play push or notification, left to `GooglePlayLines`.
  case googlePlay
}

/// What one line of a requests file holds for a run that decides Google Play's lines alone
/// (`--store googlePlay`).
enum GooglePlayRunLine: Equatable {
  /// A Google Play push or notification, left to `GooglePlayLines`.
  case googlePlay
  /// An App Store line, left out: whether it claims to be a CONSUMPTION_REQUEST.
  case appStore(isRequest: Bool)
}

/// Reads one line of a requests file: a decoded notification (fast path, else `RequestFile`), or
/// a raw webhook body `{"signedPayload": …}` verified against the configured roots.
struct RequestLineReader {
  let path: String
  let verifier: NotificationVerifier?
  private var fast = NotificationLineDecoder()

  init(path: String, verifier: NotificationVerifier?) {
    self.path = path
    self.verifier = verifier
  }

  /// What line `index` of `lines` holds.
  mutating func read(_ index: Int, of lines: RequestLines) throws(DryRunError) -> RequestLine {
    let number = Int(lines.numbers[index])
    return try lines.withLine(index) { line throws(DryRunError) in
      try read(line, number: number)
    }
  }

  /// What the line holds.
  mutating func read(_ given: UnsafeBufferPointer<UInt8>, number: Int) throws(DryRunError)
    -> RequestLine
  {
    let line = Self.withoutBOM(given, number: number)
    if let request = fast.decode(line) { return .request(request) }
    let data = Data(line)
    let object = try self.object(data, number: number)
    if GooglePlayLine.isGooglePlay(object) { return .googlePlay }
    if case .string(let signed)? = object["signedPayload"] {
      return try verify(signed, number: number)
    }
    do {
      return .request(try RequestFile.decode(data, path: "\(path):\(number)"))
    } catch .notAConsumptionRequest {
      return Self.verdict(in: object) ?? .otherNotification
    } catch {
      throw .badLine(path: path, line: number, reason: error.problem)
    }
  }

  /// What line `index` of `lines` holds for a run that leaves the App Store's lines out. Those
  /// are told apart by what they claim, with no signature verified: none is decided, so one
  /// that cannot be read or verified does not stop the run (as a Google Play line does not
  /// stop `--store appStore`). A line of neither store stops it, as in any dry-run.
  mutating func readForGooglePlay(_ index: Int, of lines: RequestLines) throws(DryRunError)
    -> GooglePlayRunLine
  {
    let number = Int(lines.numbers[index])
    return try lines.withLine(index) { given throws(DryRunError) in
      let line = Self.withoutBOM(given, number: number)
      if fast.decode(line) != nil { return .appStore(isRequest: true) }
      let data = Data(line)
      let object = try self.object(data, number: number)
      if GooglePlayLine.isGooglePlay(object) { return .googlePlay }
      let claimed: JSONValue?
      if case .string(let signed)? = object["signedPayload"] {
        claimed = SignedPayloadVerifier.claimedPayload(signed)?.objectValue?["notificationType"]
      } else if let type = object["notificationType"] {
        claimed = type
      } else {
        // Neither store's by its keys: read, and refused, as a run of every line reads it.
        if case .request = try read(line, number: number) { return .appStore(isRequest: true) }
        return .appStore(isRequest: false)
      }
      return .appStore(
        isRequest: claimed?.stringValue == NotificationType.consumptionRequest.rawValue)
    }
  }

  /// The line without the byte order mark a file saved "with BOM" (as some Windows editors do)
  /// starts with; it is no JSON.
  private static func withoutBOM(_ line: UnsafeBufferPointer<UInt8>, number: Int)
    -> UnsafeBufferPointer<UInt8>
  {
    number == 1 && line.starts(with: [0xEF, 0xBB, 0xBF])
      ? UnsafeBufferPointer(rebasing: line[3...]) : line
  }

  /// The line parsed as the JSON object every line must be.
  private func object(_ data: Data, number: Int) throws(DryRunError) -> [String: JSONValue] {
    let parsed: JSONValue
    do { parsed = try JSONValue.parse(data) } catch {
      throw .badLine(path: path, line: number, reason: "not valid JSON: \(error.description)")
    }
    guard let object = parsed.objectValue else {
      throw .badLine(path: path, line: number, reason: "not a JSON object")
    }
    return object
  }

  private func verify(_ signed: String, number: Int) throws(DryRunError) -> RequestLine {
    guard let verifier else { throw .signedWithoutTrust(path: path, line: number) }
    let verified: VerifiedNotification
    do { verified = try verifier.verifyNamingType(signedPayload: signed) } catch {
      // Signed and readable, but another app's (an archive several apps share): left out and
      // counted, as serve refuses it, not a line that cannot be read.
      if error.failure.isAnotherApp { return .otherApp }
      throw .unverified(path: path, line: number, reason: error.failure.description)
    }
    guard verified.payload.notificationType == .consumptionRequest else {
      guard
        StoreVerdicts.isVerdict(
          verified.payload.rawNotificationType, subtype: verified.payload.rawSubtype),
        let transactionId = verified.transaction?.transactionId,
        let date = verified.transaction?.revocationDate ?? verified.payload.signedDate
      else { return .otherNotification }
      return .verdict(
        transactionId: transactionId, environment: verified.app.environment, at: date)
    }
    guard let request = RefundRequest(verified) else {
      throw .badLine(
        path: path, line: number, reason: "the notification has no transaction or signedDate")
    }
    return .request(request)
  }

  /// Apple's verdict in a decoded notification, timed as `reckon serve` records it: when the
  /// transaction was refunded, else when the notification was signed.
  private static func verdict(in notification: [String: JSONValue]) -> RequestLine? {
    guard
      StoreVerdicts.isVerdict(
        notification["notificationType"]?.stringValue,
        subtype: notification["subtype"]?.stringValue),
      let data = notification["data"]?.objectValue,
      let transaction = (data["signedTransactionInfo"] ?? data["transactionInfo"])?.objectValue,
      let transactionId = transaction["transactionId"]?.stringValue,
      case .integer(let milliseconds)? = transaction["revocationDate"]
        ?? notification["signedDate"],
      let date = NotificationLineDecoder.date(Int64(milliseconds))
    else { return nil }
    return .verdict(
      transactionId: transactionId,
      environment: data["environment"]?.stringValue.flatMap(AppStoreEnvironment.init(rawValue:)),
      at: date)
  }
}
