import Foundation
import ReckonGooglePlay
import ReckonHTTP
import ReckonSupport

/// A local Google Play for tests and demos, on 127.0.0.1: an OAuth token endpoint that checks a
/// service account's RS256 assertion, Google's OpenID key set for push tokens, and
/// `orders.reviewrefund`, which checks the bearer token and the body against Google's rules,
/// and records the first answer per review and ignores the rest while still answering OK.
public final class GooglePlayStandIn: @unchecked Sendable {
  /// A review Google is waiting on.
  struct Review {
    let packageName: String
    let pendingRefundToken: String
    var answer: ReviewRefundRequest?
  }

  private let accountKey: RSAPublicKey
  private let clientEmail: String
  /// The OpenID signer whose keys the certificate endpoint lists.
  public let identity: LocalGoogleIdentity
  private let lock = NSLock()
  private var server: HTTPServer?
  private var base: URL?
  private var tokens: [String: Date] = [:]
  private var reviews: [String: Review] = [:]
  private var faults: [GooglePlayStandInFault] = []
  private var log: [GooglePlayStandInCall] = []
  /// Whether an answer for an order no review was opened for is taken as the first answer to
  /// a review opened then (for a demo, where no one opens reviews); false refuses it with 404.
  public var acceptsUnopenedReviews: Bool {
    get { lock.withLock { acceptsUnopened } }
    set { lock.withLock { acceptsUnopened = newValue } }
  }
  private var acceptsUnopened = false

  /// A stand-in that takes assertions from `clientEmail` signed by `accountKey`.
  public init(accountKey: RSAPublicKey, clientEmail: String) throws(RSAKeyError) {
    self.accountKey = accountKey
    self.clientEmail = clientEmail
    self.identity = try LocalGoogleIdentity()
  }

  /// Starts listening on 127.0.0.1 (`port` 0 picks one) and returns the base URL.
  @discardableResult
  public func start(port: Int = 0) throws(StandInError) -> URL {
    let server = HTTPServer(
      configuration: .init(port: port), synchronousHandler: { [self] request in handle(request) })
    let bound: Int
    do { bound = try server.start() } catch { throw .cannotListen(error.description) }
    let url = URL(string: "http://127.0.0.1:\(bound)")!
    lock.withLock {
      self.server = server
      self.base = url
    }
    return url
  }

  /// The token endpoint a service-account key file for this stand-in names.
  public var tokenURL: URL? { lock.withLock { base?.appendingPathComponent("token") } }
  /// The key set endpoint, in place of Google's.
  public var certificatesURL: URL? {
    lock.withLock { base?.appendingPathComponent("oauth2/v3/certs") }
  }

  /// Stops the listener after in-flight requests finish.
  public func shutdown() { lock.withLock { server }?.shutdown() }

  /// Opens a review, as Google does before it sends the notification.
  public func open(_ review: PendingRefundReviewNotification, packageName: String) {
    lock.withLock {
      reviews[review.orderId] = Review(
        packageName: packageName, pendingRefundToken: review.pendingRefundToken, answer: nil)
    }
  }

  /// The answer recorded for `orderId`, if one was.
  public func answer(for orderId: String) -> ReviewRefundRequest? {
    lock.withLock { reviews[orderId]?.answer }
  }

  /// Plays `fault` on the next answer that passes the checks.
  public func inject(_ fault: GooglePlayStandInFault) { lock.withLock { faults.append(fault) } }

  /// Every call received, in order.
  public var calls: [GooglePlayStandInCall] { lock.withLock { log } }

  private func handle(_ request: HTTPRequest) -> HTTPResponse {
    var call = GooglePlayStandInCall(
      endpoint: .unknown, body: request.body, problem: nil, status: 0, recorded: false)
    let (status, body) = answer(request, &call)
    call.status = status
    lock.withLock { log.append(call) }
    return HTTPResponse(
      status: status, headers: [("Content-Type", "application/json; charset=UTF-8")], body: body)
  }

  private func answer(_ request: HTTPRequest, _ call: inout GooglePlayStandInCall) -> (Int, Data) {
    if request.method == "GET", request.path == "/oauth2/v3/certs" {
      call.endpoint = .certificates
      return (200, (try? identity.keySet().json()) ?? Data())
    }
    if request.method == "POST", request.path == "/token" {
      call.endpoint = .token
      return tokenAnswer(request, &call)
    }
    if request.method == "POST", let (package, order) = Self.reviewPath(request.path) {
      call.endpoint = .reviewRefund(packageName: package, orderId: order)
      return reviewAnswer(request, package: package, order: order, &call)
    }
    call.problem = "no such endpoint"
    return Self.error(404, "NOT_FOUND", "The requested URL was not found on this server.")
  }

  /// The package and order of a review path.
  static func reviewPath(_ path: String) -> (String, String)? {
    let prefix = "/androidpublisher/v3/applications/"
    guard path.hasPrefix(prefix), path.hasSuffix(":reviewrefund") else { return nil }
    let parts = path.dropFirst(prefix.count).dropLast(":reviewrefund".count).split(
      separator: "/", omittingEmptySubsequences: false)
    guard parts.count == 3, parts[1] == "orders", !parts[0].isEmpty, !parts[2].isEmpty,
      let package = parts[0].removingPercentEncoding, let order = parts[2].removingPercentEncoding
    else { return nil }
    return (package, order)
  }

  private func tokenAnswer(_ request: HTTPRequest, _ call: inout GooglePlayStandInCall) -> (
    Int, Data
  ) {
    var form: [String: String] = [:]
    for pair in String(decoding: request.body, as: UTF8.self).split(separator: "&") {
      let parts = pair.split(separator: "=", maxSplits: 1).map(String.init)
      guard parts.count == 2 else { continue }
      form[parts[0]] = parts[1].removingPercentEncoding ?? parts[1]
    }
    func oauthError(_ why: String) -> (Int, Data) {
      call.problem = why
      return (400, Data(#"{"error":"invalid_grant","error_description":"\#(why)"}"#.utf8))
    }
    guard form["grant_type"] == "urn:ietf:params:oauth:grant-type:jwt-bearer" else {
      return oauthError("grant_type is not jwt-bearer")
    }
    guard let assertion = form["assertion"] else { return oauthError("no assertion") }
    if let problem = assertionProblem(assertion) { return oauthError(problem) }
    let token = "ya29.local-" + UUID().uuidString
    lock.withLock { tokens[token] = Date().addingTimeInterval(3_599) }
    return (
      200, Data(#"{"access_token":"\#(token)","expires_in":3599,"token_type":"Bearer"}"#.utf8)
    )
  }

  private func assertionProblem(_ assertion: String) -> String? {
    let parts = assertion.split(separator: ".", omittingEmptySubsequences: false)
    guard parts.count == 3, let signature = Base64URL.decode(parts[2]),
      let header = Base64URL.decode(parts[0]).flatMap({ try? JSONValue.parse($0) })?.objectValue,
      let claims = Base64URL.decode(parts[1]).flatMap({ try? JSONValue.parse($0) })?.objectValue
    else { return "the assertion is not a compact JWS" }
    guard header["alg"] == .string("RS256") else { return "alg is not RS256" }
    guard
      accountKey.verifiesRS256(signature: signature, message: Data("\(parts[0]).\(parts[1])".utf8))
    else { return "Invalid JWT Signature." }
    guard claims["iss"] == .string(clientEmail) else { return "iss is not the service account" }
    guard let tokenURL, claims["aud"] == .string(tokenURL.absoluteString) else {
      return "aud is not the token endpoint"
    }
    guard let scope = claims["scope"]?.stringValue,
      scope.split(separator: " ").contains("https://www.googleapis.com/auth/androidpublisher")
    else { return "the scope does not include androidpublisher" }
    guard case .integer(let issued)? = claims["iat"], case .integer(let expires)? = claims["exp"]
    else { return "iat and exp must be whole seconds" }
    let now = Int(Date().timeIntervalSince1970)
    if issued > now + 60 { return "iat is in the future" }
    if expires <= now { return "the assertion has expired" }
    if expires - issued > 3_600 { return "exp is more than an hour after iat" }
    return nil
  }

  private func reviewAnswer(
    _ request: HTTPRequest, package: String, order: String, _ call: inout GooglePlayStandInCall
  ) -> (Int, Data) {
    let bearer = request.header("Authorization").flatMap {
      $0.hasPrefix("Bearer ") ? String($0.dropFirst(7)) : nil
    }
    let valid = lock.withLock { bearer.flatMap { tokens[$0] }.map { $0 > Date() } ?? false }
    guard valid else {
      call.problem = "no valid access token"
      return Self.error(
        401, "UNAUTHENTICATED", "Request had invalid authentication credentials.")
    }
    let body: ReviewRefundRequest
    switch GooglePlayReviewRules.check(request.body) {
    case .refused(let problem):
      call.problem = problem
      return Self.error(400, "INVALID_ARGUMENT", problem)
    case .accepted(let checked): body = checked
    }
    return lock.withLock { () -> (Int, Data) in
      if acceptsUnopened, reviews[order] == nil {
        reviews[order] = Review(
          packageName: package, pendingRefundToken: body.pendingRefundToken, answer: nil)
      }
      guard var review = reviews[order], review.packageName == package else {
        call.problem = "no review for order \(order) of \(package)"
        return Self.error(404, "NOT_FOUND", "Order not found.")
      }
      guard review.pendingRefundToken == body.pendingRefundToken else {
        call.problem = "the pendingRefundToken is not this review's"
        return Self.error(400, "INVALID_ARGUMENT", "Invalid pending refund token.")
      }
      let fault = faults.isEmpty ? nil : faults.removeFirst()
      if case .refuse(let status) = fault {
        call.problem = "refused by an injected fault"
        return Self.error(
          status, status == 429 ? "RESOURCE_EXHAUSTED" : "UNAVAILABLE", "Try again.")
      }
      if review.answer == nil {
        review.answer = body
        reviews[order] = review
        call.recorded = true
      }
      if case .recordThenFail(let status) = fault {
        return Self.error(status, "INTERNAL", "Internal error encountered.")
      }
      return (200, Data("{}".utf8))
    }
  }

  private static func error(_ code: Int, _ status: String, _ message: String) -> (Int, Data) {
    (code, GoogleAPIError(code: code, status: status, message: message).body())
  }
}
