import Foundation
import ReckonAppStore

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

  /// The request on line `index` of `lines`, nil for a notification that is not a
  /// CONSUMPTION_REQUEST.
  mutating func read(_ index: Int, of lines: RequestLines) throws(DryRunError) -> RefundRequest? {
    let number = Int(lines.numbers[index])
    return try lines.withLine(index) { line throws(DryRunError) in
      try read(line, number: number)
    }
  }

  /// The request on the line, nil for a notification that is not a CONSUMPTION_REQUEST.
  mutating func read(_ line: UnsafeBufferPointer<UInt8>, number: Int) throws(DryRunError)
    -> RefundRequest?
  {
    if let request = fast.decode(line) { return request }
    let data = Data(line)
    let parsed: JSONValue
    do { parsed = try JSONValue.parse(data) } catch {
      throw .badLine(path: path, line: number, reason: "not valid JSON: \(error.description)")
    }
    guard let object = parsed.objectValue else {
      throw .badLine(path: path, line: number, reason: "not a JSON object")
    }
    if case .string(let signed)? = object["signedPayload"] {
      return try verify(signed, number: number)
    }
    do {
      return try RequestFile.decode(data, path: "\(path):\(number)")
    } catch .notAConsumptionRequest {
      return nil
    } catch {
      throw .badLine(path: path, line: number, reason: error.problem)
    }
  }

  private func verify(_ signed: String, number: Int) throws(DryRunError) -> RefundRequest? {
    guard let verifier else { throw .signedWithoutTrust(path: path, line: number) }
    let verified: VerifiedNotification
    do { verified = try verifier.verify(signedPayload: signed) } catch {
      throw .unverified(path: path, line: number, reason: error.description)
    }
    guard verified.payload.notificationType == .consumptionRequest else { return nil }
    guard let transaction = verified.transaction, let receivedAt = verified.payload.signedDate
    else {
      throw .badLine(
        path: path, line: number, reason: "the notification has no transaction or signedDate")
    }
    return RefundRequest(
      notification: verified.payload, transaction: transaction, receivedAt: receivedAt)
  }
}
