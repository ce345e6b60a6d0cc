import Foundation
import ReckonAppStore
import ReckonEngine
import ReckonFacts
import ReckonGooglePlay
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

  /// The request of either store, received at its stored time, with its recorded facts read by
  /// its store's schema: `schema` for Apple's, `googlePlay` for Google Play's reviews (which
  /// `reckon serve` records as the decoded developer notification, verified on arrival).
  public static func decodeEntry(
    _ stored: StoredRequest, schema: FactSchema, googlePlay: FactSchema
  ) throws(DryRunError) -> PastEntry {
    // Apple's first, as nearly all are, on its fast path; Google's only when that fails.
    let apple: DryRunError
    do { return .appStore(try decode(stored, schema: schema)) } catch { apple = error }
    guard let review = try review(stored) else { throw apple }
    let facts = stored.factsJSON.map { recordedFacts($0, request: review, schema: googlePlay) }
    // Recorded as `google:MESSAGE_ID`; the row writes the prefix again.
    let messageId = stored.notificationUUID.flatMap {
      $0.hasPrefix("google:") ? String($0.dropFirst("google:".count)) : nil
    }
    return .googlePlay(
      PastReview(
        review: review, origin: "request \(stored.id)", messageId: messageId,
        recordedFacts: facts))
  }

  /// The Google Play review a stored notification holds; nil when it is Apple's.
  private static func review(_ stored: StoredRequest) throws(DryRunError)
    -> GooglePlayReviewRequest?
  {
    // Apple's are a decoded notification (`notificationType`) or `{"signedPayload": …}`; only
    // Google's developer notifications name a package.
    guard stored.rawNotification.first == UInt8(ascii: "{"),
      let object = (try? JSONValue.parse(stored.rawNotification))?.objectValue,
      object["packageName"] != nil, object["notificationType"] == nil
    else { return nil }
    let notification: DeveloperNotification
    do throws(GooglePlayPayloadError) {
      notification = try DeveloperNotification(data: stored.rawNotification)
    } catch {
      throw .badStoredRequest(id: stored.id, reason: error.description)
    }
    guard let review = GooglePlayReviewRequest(notification, receivedAt: stored.receivedAt) else {
      throw .badStoredRequest(
        id: stored.id, reason: "the stored Google Play notification is not a refund review")
    }
    return review
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
  static func recordedFacts(_ json: Data, request: some ReplyRequest, schema: FactSchema)
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
