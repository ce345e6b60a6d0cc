/// Why a push body is not a Google Play developer notification Reckon can read. Such a push is
/// refused with 400, never acknowledged: Pub/Sub delivers it again until its retention ends, so
/// a Reckon that can read it (a kind Google added, say) still finds it.
public enum GooglePlayPayloadError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The push body is not a Pub/Sub push envelope (`{"message": {"data": ...}, "subscription"}`).
  case notAPush(String)
  /// The message's `data` is not base64 of a JSON object.
  case undecodableData(String)
  /// A field is missing or has the wrong type; `path` names it (`pendingRefundReviewNotification.orderId`).
  case badField(path: String, reason: String)
  /// Not exactly one of the notification kinds is present.
  case kindCount(Int)

  /// One sentence.
  public var description: String {
    switch self {
    case .notAPush(let why): "the body is not a Pub/Sub push: \(why)"
    case .undecodableData(let why): "the push's data is not a developer notification: \(why)"
    case .badField(let path, let reason): "\(path): \(reason)"
    case .kindCount(let count):
      "a developer notification has exactly one kind of notification in it, this one has \(count)"
    }
  }
}
