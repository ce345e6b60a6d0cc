import Foundation
import ReckonGooglePlay
import ReckonHTTP
import ReckonStandIn

/// A local Google Play for one test (for tests only): the stand-in on loopback, a service account it trusts,
/// and a client wired to both through a real HTTP transport.
public struct GooglePlayWorld: Sendable {
  public static let packageName = "com.example.reckon"
  public static let clientEmail = "reckon@example-project.iam.gserviceaccount.com"
  /// Generating RSA keys is slow; every test shares one account key.
  public static let accountKey = try! RSAPrivateKey(generatedFor: "a test service account")

  public let standIn: GooglePlayStandIn
  public let base: URL
  public let account: ServiceAccountKey
  public let tokens: AccessTokenSource
  public let client: GooglePlayAPIClient
  public let transport = CurlHTTPClient(timeout: 5)

  /// Starts the stand-in and makes the client.
  public init() throws {
    standIn = try GooglePlayStandIn(
      accountKey: try Self.accountKey.publicKey(), clientEmail: Self.clientEmail)
    base = try standIn.start()
    account = ServiceAccountKey(
      clientEmail: Self.clientEmail, privateKeyId: "test-key-1", privateKey: Self.accountKey,
      tokenURL: standIn.tokenURL!)
    tokens = AccessTokenSource(account: account, transport: transport)
    client = GooglePlayAPIClient(tokens: tokens, baseURL: base, transport: transport)
  }

  /// Opens a review in the stand-in and returns its notification.
  public func openReview(orderId: String = "GPA.3312-5841-2290-11234", token: String = "prt-1")
    -> PendingRefundReviewNotification
  {
    let review = PendingRefundReviewNotification(
      pendingRefundToken: token, orderId: orderId, refundReason: .chargeback)
    standIn.open(review, packageName: Self.packageName)
    return review
  }

  /// A valid answer to `review`.
  public static func answer(
    _ review: PendingRefundReviewNotification, _ preference: GooglePlayRefundPreference = .decline
  ) -> ValidatedReviewRefund {
    let request = ReviewRefundRequest(
      pendingRefundToken: review.pendingRefundToken, sampleContentProvided: false,
      refundPreference: preference, consumptionPercentageMilliunits: 45_200)
    guard case .success(let body) = ReviewRefundValidator.validate(request) else {
      fatalError("the test answer breaks a rule")
    }
    return body
  }
}
