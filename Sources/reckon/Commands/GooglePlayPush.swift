import Foundation
import ReckonEngine
import ReckonFacts
import ReckonGooglePlay
import ReckonHTTP
import ReckonSupport

/// `reckon simulate --identity DIR`: one Pub/Sub push of a Google Play notification, signed
/// as Google signs authenticated pushes.
struct GooglePlayPush {
  let identity: LocalGoogleIdentity
  let url: URL
  let audience: String
  let email: String
  let notification: DeveloperNotification

  init(directory: String, arguments: inout Arguments) throws {
    identity = try LocalGoogleIdentity(directory: directory)
    guard let url = URL(string: try arguments.required("url")) else {
      throw UsageError("--url must be a URL such as http://127.0.0.1:8080/google/rtdn")
    }
    self.url = url
    let configuration = try ReckonConfiguration.load(
      path: arguments.option("config") ?? "reckon.json")
    guard let push = configuration.googlePlay else {
      throw UsageError("the configuration has no googlePlay section to take the audience from")
    }
    audience = push.audience
    email = push.pushServiceAccountEmail
    guard
      let package = arguments.option("package")
        ?? configuration.googlePlayApps.first?.packageName
    else { throw UsageError("--package is needed: the configuration has no Google Play app") }
    let order = arguments.option("order-id") ?? "GPA.3312-5841-2290-11234"
    let kind: DeveloperNotification.Kind
    if arguments.flag("voided") {
      kind = .voidedPurchase(
        VoidedPurchaseNotification(purchaseToken: "purchase-token-demo", orderId: order))
    } else {
      let reasonName = arguments.option("play-reason") ?? "FRIENDLY_FRAUD"
      guard let ordinal = FactSchema.GooglePlay.reason.ordinal(of: reasonName) else {
        throw UsageError(
          "--play-reason must be one of \(FactSchema.GooglePlay.reason.cases.joined(separator: ", "))"
        )
      }
      kind = .pendingRefundReview(
        PendingRefundReviewNotification(
          pendingRefundToken: arguments.option("refund-token") ?? "prt-demo-1", orderId: order,
          refundReason: GooglePlayRefundReason(number: ordinal),
          obfuscatedAccountId: arguments.option("account-id")))
    }
    try arguments.rejectUnknown()
    notification = DeveloperNotification(packageName: package, eventTime: Date(), kind: kind)
  }

  func post(_ console: Console) async throws -> Int32 {
    let (body, authorization) = try identity.push(notification, audience: audience, email: email)
    let response = try await CurlHTTPClient(timeout: 30, maximumConnections: 1).perform(
      HTTPClientRequest(
        method: "POST", url: url,
        headers: [("Content-Type", "application/json"), ("Authorization", authorization)],
        body: body))
    console.out(
      "\(GooglePlayStore.notificationType(of: notification.kind)) for \(notification.packageName): HTTP \(response.status) \(String(decoding: response.body, as: UTF8.self))"
    )
    return (200..<300).contains(response.status) ? 0 : 1
  }
}
