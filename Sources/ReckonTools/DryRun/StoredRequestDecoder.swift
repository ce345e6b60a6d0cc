import Foundation
import ReckonAppStore
import ReckonEngine
import ReckonFacts
import ReckonPolicy
import ReckonState
import ReckonSupport

/// Reads back a request from the state database: the notification as received (a webhook body
/// `{"signedPayload": …}`, verified when it arrived and decoded here without checking again, or
/// a decoded notification) and the facts its decision was made on.
public enum StoredRequestDecoder {
  /// The request, received at its stored time, with its recorded facts when it has them.
  public static func decode(_ stored: StoredRequest, schema: FactSchema) throws(DryRunError)
    -> PastRequest
  {
    let request = try request(stored.rawNotification, receivedAt: stored.receivedAt, id: stored.id)
    let facts = stored.factsJSON.map { recordedFacts($0, request: request, schema: schema) }
    return PastRequest(request: request, origin: "request \(stored.id)", recordedFacts: facts)
  }

  /// The request in a stored notification body.
  public static func request(_ raw: Data, receivedAt: Date, id: Int64) throws(DryRunError)
    -> RefundRequest
  {
    // A decoded notification is read straight from its bytes when it is plain (as generated
    // and imported ones are); the general path parses it three times over.
    var plain = NotificationLineDecoder(sharingStrings: false)
    if let decoded = raw.withUnsafeBytes({ plain.decode($0.bindMemory(to: UInt8.self)) }) {
      return RefundRequest(
        notification: decoded.notification, transaction: decoded.transaction,
        receivedAt: receivedAt)
    }
    guard let object = (try? JSONValue.parse(raw))?.objectValue else {
      throw .badStoredRequest(id: id, reason: "the stored notification is not JSON")
    }
    guard case .string(let signed)? = object["signedPayload"] else {
      do { return try RequestFile.decode(raw, path: "request \(id)", now: receivedAt) } catch {
        throw .badStoredRequest(id: id, reason: error.description)
      }
    }
    guard let payload = jwsPayload(signed),
      var notification = try? AppStoreJSON.decoder().decode(
        ResponseBodyV2DecodedPayload.self, from: payload),
      let signedTransaction = notification.data?.signedTransactionInfo,
      let transactionData = jwsPayload(signedTransaction),
      let transaction = try? AppStoreJSON.decoder().decode(
        JWSTransactionDecodedPayload.self, from: transactionData)
    else {
      throw .badStoredRequest(id: id, reason: "the stored signedPayload does not decode")
    }
    notification.data?.signedTransactionInfo = nil
    return RefundRequest(
      notification: notification, transaction: transaction, receivedAt: receivedAt)
  }

  /// The middle part of a compact JWS, decoded.
  static func jwsPayload(_ compact: String) -> Data? {
    let parts = compact.split(separator: ".", omittingEmptySubsequences: false)
    guard parts.count == 3 else { return nil }
    return Base64URL.decode(parts[1])
  }

  /// The facts stored with a decision (`[{name, value, source}]`), over the notification's own.
  static func recordedFacts(_ json: Data, request: RefundRequest, schema: FactSchema)
    -> GatheredFacts
  {
    var facts = GatheredFacts(request: request, schema: schema)
    guard case .array(let entries)? = try? JSONValue.parse(json) else { return facts }
    var bySource: [String: [String: Value]] = [:]
    for case .object(let entry) in entries {
      guard case .string(let name)? = entry["name"], case .string(let text)? = entry["value"],
        let type = schema.policySchema.fact(named: name)?.type,
        schema.origin(of: name) != .notification
      else { continue }
      let source = entry["source"]?.stringValue ?? "recorded"
      if case .text = type {
        bySource[source, default: [:]][name] = .text(unquoted(text))
      } else if let value = try? ValueParser.parse(text, as: type) {
        bySource[source, default: [:]][name] = value
      }
    }
    for (source, values) in bySource.sorted(by: { $0.key < $1.key }) {
      facts.add(values, from: source, schema: schema)
    }
    return facts
  }

  private static func unquoted(_ text: String) -> String {
    guard text.count >= 2, text.hasPrefix("\""), text.hasSuffix("\"") else { return text }
    return String(text.dropFirst().dropLast())
  }
}
