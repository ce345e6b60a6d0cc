import Foundation
import ReckonAppStore
import ReckonHTTP

/// A local App Store Server API for tests and demos, on 127.0.0.1. For
/// `PUT /inApps/v2/transactions/consumption/{transactionId}` it checks the bearer token (signature
/// with the public key, header and claims), then the body against Apple's rules, then answers
/// from its script; every request is recorded for inspection.
public final class AppStoreStandIn: @unchecked Sendable {
  private static let prefix = "/inApps/v2/transactions/consumption/"
  private let verifier: JWTVerifier
  private let lock = NSLock()
  private var script: [StandInReply] = []
  private var responder: (@Sendable (StandInRequest) -> StandInReply?)?
  private var recorded: [StandInRequest] = []
  private var server: HTTPServer?
  /// What Apple knows of each transaction registered (its product and ownership type), for the
  /// rules that depend on them.
  private var transactions: [String: ConsumptionValidationContext] = [:]
  /// What to answer when the script is empty and no responder answers.
  public var defaultReply: StandInReply {
    get { lock.withLock { storedDefault } }
    set { lock.withLock { storedDefault = newValue } }
  }
  private var storedDefault: StandInReply = .accepted
  /// The Get Notification History endpoint's script (see `StandInHistory`).
  public let history = StandInHistory()

  /// A stand-in that accepts tokens matching `expected`, signed by the key with `publicKeyPEM`.
  public init(publicKeyPEM: String, expected: JWTVerifier.Expected) throws(StandInError) {
    guard let verifier = JWTVerifier(publicKeyPEM: publicKeyPEM, expected: expected) else {
      throw .badPublicKey
    }
    self.verifier = verifier
  }

  /// Starts listening on 127.0.0.1 (`port` 0 picks one) and returns the base URL to configure.
  @discardableResult
  public func start(port: Int = 0) throws(StandInError) -> URL {
    let server = HTTPServer(
      configuration: .init(port: port), synchronousHandler: { [self] request in handle(request) })
    let bound: Int
    do { bound = try server.start() } catch { throw .cannotListen(error.description) }
    lock.withLock { self.server = server }
    return URL(string: "http://127.0.0.1:\(bound)")!
  }

  /// Stops the listener after in-flight requests finish.
  public func shutdown() {
    lock.withLock { server }?.shutdown()
  }

  /// Tells the stand-in what Apple knows of `transactionId` (product and ownership type), so
  /// its bodies are held to the rules that depend on them, as Apple holds them: a percentage
  /// for an auto-renewable, a prorated grant without one for a consumable. Bodies for
  /// transactions not registered are checked by the other rules only.
  public func register(_ transactionId: String, _ context: ConsumptionValidationContext) {
    lock.withLock { transactions[transactionId] = context }
  }

  /// Queues replies for the next valid requests, in order.
  public func enqueue(_ replies: StandInReply...) {
    lock.withLock { script.append(contentsOf: replies) }
  }

  /// Answers valid requests with `responder` when the script is empty (nil falls back to `defaultReply`).
  public func respond(with responder: @escaping @Sendable (StandInRequest) -> StandInReply?) {
    lock.withLock { self.responder = responder }
  }

  /// Every request received so far, in arrival order.
  public var requests: [StandInRequest] { lock.withLock { recorded } }

  /// Forgets recorded requests.
  public func clearRequests() { lock.withLock { recorded.removeAll() } }

  private func handle(_ request: HTTPRequest) -> HTTPResponse {
    var headers: [String: String] = [:]
    for (name, value) in request.headers { headers[name.lowercased()] = value }
    var record = StandInRequest(
      method: request.method, path: request.path, headers: headers, body: request.body,
      transactionId: nil,
      problem: nil, status: 0, receivedAt: Date())
    let reply = decide(&record, request)
    record.status = reply.status
    lock.withLock { recorded.append(record) }
    return HTTPResponse(
      status: reply.status, headers: reply.headers + [("Content-Type", "application/json")],
      body: reply.body)
  }

  private func decide(_ record: inout StandInRequest, _ request: HTTPRequest) -> (
    status: Int, headers: [(name: String, value: String)], body: Data
  ) {
    if request.method == "POST", request.path.hasPrefix("/inApps/v1/notifications/history") {
      return historyReply(&record, request)
    }
    guard request.method == "PUT", request.path.hasPrefix(Self.prefix),
      request.path.count > Self.prefix.count
    else {
      record.problem = "not the consumption endpoint"
      return StandInReply.badRequest(errorCode: 4_000_000, message: "Not found.").response
    }
    record.transactionId = String(request.path.dropFirst(Self.prefix.count))
    guard let authorization = request.header("Authorization"), authorization.hasPrefix("Bearer ")
    else {
      record.problem = "no bearer token"
      return StandInReply.unauthorized.response
    }
    if let problem = verifier.problem(with: String(authorization.dropFirst(7)), now: Date()) {
      record.problem = problem
      return StandInReply.unauthorized.response
    }
    let context = lock.withLock { record.transactionId.flatMap { transactions[$0] } }
    let violations = ConsumptionRequestValidator.validate(
      body: request.body, context: context ?? .init())
    if let first = violations.first {
      record.problem = violations.map(\.errorName).joined(separator: ", ")
      return StandInReply.badRequest(
        errorCode: first.errorCode ?? 4_000_000, message: first.message
      ).response
    }
    return nextReply(for: record).response
  }

  private func historyReply(_ record: inout StandInRequest, _ request: HTTPRequest) -> (
    status: Int, headers: [(name: String, value: String)], body: Data
  ) {
    guard let authorization = request.header("Authorization"), authorization.hasPrefix("Bearer "),
      verifier.problem(with: String(authorization.dropFirst(7)), now: Date()) == nil
    else {
      record.problem = "bad or missing bearer token"
      return StandInReply.unauthorized.response
    }
    let query = request.target.split(separator: "?", maxSplits: 1).dropFirst().first.map(
      String.init)
    let answer = history.answer(body: request.body, query: query)
    return (answer.status, answer.retryAfter.map { [("Retry-After", $0)] } ?? [], answer.body)
  }

  private func nextReply(for record: StandInRequest) -> StandInReply {
    let (scripted, responder) = lock.withLock {
      () -> (StandInReply?, (@Sendable (StandInRequest) -> StandInReply?)?) in
      script.isEmpty ? (nil, self.responder) : (script.removeFirst(), nil)
    }
    return scripted ?? responder?(record) ?? defaultReply
  }
}

/// Why the stand-in could not start.
public enum StandInError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The public key PEM could not be parsed.
  case badPublicKey
  /// The listener could not bind.
  case cannotListen(String)

  /// What failed.
  public var description: String {
    switch self {
    case .badPublicKey: "the stand-in's public key is not a PEM PUBLIC KEY"
    case .cannotListen(let why): "the stand-in cannot listen: \(why)"
    }
  }
}
