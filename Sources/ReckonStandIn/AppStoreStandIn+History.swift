import Foundation
import ReckonAppStore
import ReckonSupport

/// The stand-in's Get Notification History: signed payloads it was given, filtered by the
/// request's dates and notification type like Apple's, served `pageSize` at a time with
/// pagination tokens. A startDate more than 180 days before the request arrives is refused, as
/// Apple refuses it. Every history request is recorded with its body.
public final class StandInHistory: @unchecked Sendable {
  private let lock = NSLock()
  private var payloads: [(signed: String, type: String, date: Int64)] = []
  private var storedPageSize = 20
  private var served: [Data] = []
  private var throttled: [TimeInterval] = []
  private var clock: @Sendable () -> Date = { Date() }

  /// Nothing to serve yet.
  public init() {}

  /// Serves these signed notifications (their type and signedDate read from the payload).
  public func serve(_ signedPayloads: [String], pageSize: Int) {
    let entries = signedPayloads.compactMap { signed -> (String, String, Int64)? in
      let parts = signed.split(separator: ".")
      guard parts.count == 3, let data = Base64URL.decode(parts[1]),
        let object = (try? JSONValue.parse(data))?.objectValue,
        case .string(let type)? = object["notificationType"],
        case .integer(let date)? = object["signedDate"]
      else { return nil }
      return (signed, type, Int64(date))
    }
    lock.withLock {
      payloads = entries
      storedPageSize = max(1, pageSize)
    }
  }

  /// Answers the next history requests 429, one per delay given, with a `Retry-After` that many
  /// seconds later (as Apple writes it, in UNIX milliseconds).
  public func throttle(_ delays: TimeInterval...) {
    lock.withLock { throttled.append(contentsOf: delays) }
  }

  /// Reckons the 180 days by `now`, read once as each request arrives, instead of the wall clock.
  public func useClock(_ now: @escaping @Sendable () -> Date) {
    lock.withLock { clock = now }
  }

  /// The bodies of the history requests received, in order.
  public var requestBodies: [Data] { lock.withLock { served } }

  /// The answer to one authorized history request, and its `Retry-After` when throttled.
  func answer(body: Data, query: String?) -> (status: Int, body: Data, retryAfter: String?) {
    let (delay, clock) = lock.withLock { () -> (TimeInterval?, @Sendable () -> Date) in
      served.append(body)
      return (throttled.isEmpty ? nil : throttled.removeFirst(), self.clock)
    }
    let arrived = clock()
    if let delay {
      let until = Int64(((Date().timeIntervalSince1970 + delay) * 1000).rounded())
      return (
        429, Data(#"{"errorCode":4290000,"errorMessage":"Rate limit exceeded."}"#.utf8),
        String(until)
      )
    }
    guard let object = (try? JSONValue.parse(body))?.objectValue,
      case .integer(let start)? = object["startDate"], case .integer(let end)? = object["endDate"],
      start < end
    else {
      return (
        400, Data(#"{"errorCode":4000028,"errorMessage":"Invalid start or end date."}"#.utf8), nil
      )
    }
    let earliest = (arrived.timeIntervalSince1970 - NotificationHistoryClient.maximumAge) * 1000
    guard Double(start) >= earliest else {
      return (
        400,
        Data(
          #"{"errorCode":4000012,"errorMessage":"The start date is more than 180 days ago."}"#.utf8),
        nil
      )
    }
    let type = object["notificationType"]?.stringValue
    let offset =
      query.flatMap { $0.split(separator: "=").last }.flatMap { Int($0.dropFirst("offset-".count)) }
      ?? 0
    let (page, more, size) = lock.withLock { () -> ([String], Bool, Int) in
      let matching = payloads.filter {
        $0.date >= start && $0.date < end && (type == nil || $0.type == type)
      }
      let slice = matching.dropFirst(offset).prefix(storedPageSize)
      return (slice.map(\.signed), offset + slice.count < matching.count, storedPageSize)
    }
    var reply: [String: JSONValue] = [
      "hasMore": .bool(more),
      "notificationHistory": .array(
        page.map { .object(["signedPayload": .string($0), "sendAttempts": .array([])]) }),
    ]
    if more { reply["paginationToken"] = .string("offset-\(offset + size)") }
    return (200, (try? JSONEncoder().encode(JSONValue.object(reply))) ?? Data(), nil)
  }
}
