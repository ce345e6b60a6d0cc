import Foundation
import ReckonSupport
import Synchronization

/// What every log line of one request carries: an id made when the request arrives (or the
/// one a proxy in front gave it, `X-Request-Id`) and, once known, the notification's UUID (a
/// Google Play push's message id), its transaction (order) id, its app (bundle id or package
/// name), the recorded request and the deciding policy's version. The pipelines fill it in as
/// they learn each; it travels as a task-local value, so an `events` closure reads it with
/// `RequestLogContext.current`, and it is kept beside the outbox entry the request queues, so
/// the sender's lines about that entry carry it too.
public final class RequestLogContext: Sendable {
  /// The context of the request the current task works on; nil outside one.
  @TaskLocal public static var current: RequestLogContext?

  /// The request's id, as the `X-Request-Id` response header gives it.
  public let id: String
  private let known = Mutex(Known())

  private struct Known {
    var notificationUUID: String?
    var transactionId: String?
    var app: String?
    var requestId: Int64?
    var policyVersion: String?
    var policySHA256: String?
  }

  /// A context for a request with `id`, a new one by default.
  public init(id: String = RequestLogContext.newId()) {
    self.id = id
  }

  /// A new id: 16 random hexadecimal digits, unique enough to find one request's lines among a
  /// year's.
  public static func newId() -> String {
    let value = UInt64.random(in: 0...UInt64.max)
    let digits = String(value, radix: 16)
    return String(repeating: "0", count: 16 - digits.count) + digits
  }

  /// `header` as a request id when it is one a proxy would make (1 to 64 letters, digits and
  /// `-._:`), nil otherwise: whoever can connect chooses it, and it goes into every line.
  public static func acceptedId(_ header: String?) -> String? {
    guard let header, (1...64).contains(header.utf8.count) else { return nil }
    let allowed = header.utf8.allSatisfy { byte in
      switch byte {
      case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
        UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."),
        UInt8(ascii: "_"), UInt8(ascii: ":"):
        true
      default: false
      }
    }
    return allowed ? header : nil
  }

  /// Notes the notification, its transaction and its app, once read.
  public func note(notificationUUID: String?, transactionId: String?, app: String?) {
    known.withLock {
      if let notificationUUID { $0.notificationUUID = notificationUUID }
      if let transactionId { $0.transactionId = transactionId }
      if let app { $0.app = app }
    }
  }

  /// Notes the recorded request.
  public func note(requestId: Int64) {
    known.withLock { $0.requestId = requestId }
  }

  /// Notes the version of the policy deciding the request: its `version` header, or the start
  /// of its SHA-256 when it has none.
  public func note(policyVersion version: String?, sha256: String) {
    // Kept as given: the text is made only when a line is written.
    known.withLock {
      $0.policyVersion = version
      $0.policySHA256 = sha256
    }
  }

  /// The fields a log line of the request carries: `correlationId` and what is known so far.
  public var fields: [String: JSONValue] {
    let known = known.withLock { $0 }
    var fields: [String: JSONValue] = ["correlationId": .string(id)]
    if let uuid = known.notificationUUID { fields["notificationUUID"] = .string(uuid) }
    if let transaction = known.transactionId { fields["transactionId"] = .string(transaction) }
    if let app = known.app { fields["app"] = .string(app) }
    if let request = known.requestId { fields["requestId"] = .integer(Int(request)) }
    if let version = known.policyVersion ?? known.policySHA256.map({ "sha256:" + $0.prefix(12) }) {
      fields["policyVersion"] = .string(version)
    }
    return fields
  }

  /// Runs `body` with `context` current, or a new one when there is none.
  static func within<T>(
    _ context: RequestLogContext? = nil, _ body: () async -> T
  ) async -> T {
    if context == nil, current != nil { return await body() }
    return await $current.withValue(context ?? RequestLogContext()) { await body() }
  }
}
