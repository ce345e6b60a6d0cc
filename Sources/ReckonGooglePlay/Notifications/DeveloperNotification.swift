import Foundation
import ReckonSupport

/// A Google Play real-time developer notification, as a Pub/Sub message's data carries it.
public struct DeveloperNotification: Hashable, Sendable {
  /// What the notification is about; Google sends exactly one kind in each.
  public enum Kind: Hashable, Sendable {
    /// A chargeback waits for the developer's review (`orders.reviewrefund`, within 24 hours).
    case pendingRefundReview(PendingRefundReviewNotification)
    /// A purchase was refunded, charged back or cancelled.
    case voidedPurchase(VoidedPurchaseNotification)
    /// A one-time purchase changed (`notificationType` as Google numbers it).
    case oneTimeProduct(notificationType: Int, purchaseToken: String, sku: String?)
    /// A subscription changed (`notificationType` as Google numbers it).
    case subscription(notificationType: Int, purchaseToken: String)
    /// The test notification Play Console sends from its setup page.
    case test
  }

  /// The notification format's version (`1.0`).
  public let version: String
  /// The app's package name (`com.example.app`).
  public let packageName: String
  /// When the event happened.
  public let eventTime: Date
  /// What happened.
  public let kind: Kind

  /// Creates a notification.
  public init(version: String = "1.0", packageName: String, eventTime: Date, kind: Kind) {
    self.version = version
    self.packageName = packageName
    self.eventTime = eventTime
    self.kind = kind
  }

  /// Reads the decoded `data` of a push.
  public init(data: Data) throws(GooglePlayPayloadError) {
    let root: JSONValue
    do throws(JSONParseError) { root = try JSONValue.parse(data) } catch {
      throw .undecodableData(error.description)
    }
    guard let members = root.objectValue else { throw .undecodableData("not a JSON object") }
    let fields = PayloadFields(members, path: "")
    let version = try fields.string("version", optional: true) ?? "1.0"
    let packageName = try fields.string("packageName")
    let milliseconds = try fields.integer("eventTimeMillis")
    guard let eventTime = UnixMilliseconds.date(Double(milliseconds)) else {
      throw .badField(path: "eventTimeMillis", reason: "\(milliseconds) is not a time")
    }
    let kinds = [
      "pendingRefundReviewNotification", "voidedPurchaseNotification",
      "oneTimeProductNotification", "subscriptionNotification", "testNotification",
    ].filter { members[$0] != nil && members[$0] != .null }
    guard kinds.count == 1, let name = kinds.first else { throw .kindCount(kinds.count) }
    let inner = try fields.object(name)
    let kind: Kind
    switch name {
    case "pendingRefundReviewNotification":
      kind = .pendingRefundReview(try PendingRefundReviewNotification(inner))
    case "voidedPurchaseNotification":
      kind = .voidedPurchase(try VoidedPurchaseNotification(inner))
    case "oneTimeProductNotification":
      kind = .oneTimeProduct(
        notificationType: try inner.integer("notificationType"),
        purchaseToken: try inner.string("purchaseToken"),
        sku: try inner.string("sku", optional: true))
    case "subscriptionNotification":
      kind = .subscription(
        notificationType: try inner.integer("notificationType"),
        purchaseToken: try inner.string("purchaseToken"))
    default: kind = .test
    }
    self.init(version: version, packageName: packageName, eventTime: eventTime, kind: kind)
  }

  /// The notification as Google writes it, for a stand-in and tests.
  public func data() -> Data {
    var members: [String: JSONValue] = [
      "version": .string(version), "packageName": .string(packageName),
      "eventTimeMillis": .string(
        String(Int64((eventTime.timeIntervalSince1970 * 1_000).rounded()))),
    ]
    switch kind {
    case .pendingRefundReview(let review): members["pendingRefundReviewNotification"] = review.json
    case .voidedPurchase(let voided): members["voidedPurchaseNotification"] = voided.json
    case .oneTimeProduct(let type, let token, let sku):
      var inner: [String: JSONValue] = [
        "version": .string("1.0"), "notificationType": .integer(type),
        "purchaseToken": .string(token),
      ]
      if let sku { inner["sku"] = .string(sku) }
      members["oneTimeProductNotification"] = .object(inner)
    case .subscription(let type, let token):
      members["subscriptionNotification"] = .object([
        "version": .string("1.0"), "notificationType": .integer(type),
        "purchaseToken": .string(token),
      ])
    case .test: members["testNotification"] = .object(["version": .string("1.0")])
    }
    return GooglePlayJSON.encode(JSONValue.object(members))
  }
}
