import Foundation
import ReckonAppStore
import ReckonEngine
import ReckonFacts
import ReckonPolicy
import ReckonServer
import ReckonStandIn
import ReckonState
import ReckonStateSQLite
import ReckonSupport
import ReckonTestSupport

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// A `WebhookServer` on loopback over a temporary state database, trusting a local CA, sending to
/// a local App Store stand-in with Apple's test key. Call `stop()` when done.
final class ServerFixture: @unchecked Sendable {
  static let policy = """
    policy "e2e"
    rule "asked again"
      when history.earlier_requests >= 1
      then refund GRANT_FULL
    otherwise refund DECLINE
    """

  let authority: LocalCertificateAuthority
  let standIn: AppStoreStandIn
  let service: ReckonService
  let server: WebhookServer
  let metrics = ReckonMetrics()
  let logLines = LogLines()
  let port: Int
  /// Whether `stop()` shuts the stand-in down: not one shared with other fixtures.
  private let ownsStandIn: Bool

  init(
    policy: PolicyBook.Source = .text(name: "e2e.policy", ServerFixture.policy),
    facts: any FactSource = FixedFacts(), factTimeout: Duration = .seconds(2),
    maximumBodyBytes: Int = 262_144,
    readTimeout: Double = 10, keepDays: Int? = nil, senderLock: SenderLock? = nil,
    statePath: String? = nil, state: (any StateStore)? = nil,
    authority: LocalCertificateAuthority? = nil, unsignedAccepted: Set<AppStoreEnvironment> = [],
    sharing shared: (AppStoreStandIn, URL)? = nil, sandboxPerSecond: Double = 100,
    start: Bool = true
  ) throws {
    self.authority = try authority ?? LocalCertificateAuthority()
    let (standIn, url) = try shared ?? TestKey.standIn()
    self.standIn = standIn
    ownsStandIn = shared == nil
    let metrics = self.metrics
    let logger = JSONLogger { [logLines] in logLines.append($0) }
    service = try ReckonService(
      apps: [
        .init(bundleId: TestKey.bundleId, appAppleId: nil, environment: .sandbox, policy: policy)
      ],
      factSources: [.init(facts, timeout: factTimeout)],
      state: try state
        ?? SQLiteStateStore(
          path: statePath
            ?? TestScratch.folder.appendingPathComponent("reckon-e2e-\(UUID()).sqlite").path,
          rules: .appStore,
          backgroundCheckpoints: true),
      roots: [self.authority.root], unverifiedEnvironments: unsignedAccepted,
      sender: try TestKey.client(url),
      senderConfiguration: try SenderSettings.fast(
        sandboxPerSecond: sandboxPerSecond, initialBackoff: 0.2),
      keepDays: keepDays,
      events: { event in
        metrics.record(event)
        logger.log(event)
      })
    let configuration = try Self.serverConfiguration(maximumBodyBytes: maximumBodyBytes)
    server = WebhookServer(
      service: service, configuration: configuration, metrics: metrics, logger: logger,
      readTimeout: readTimeout)
    port = start ? try server.start(intervals: Self.intervals, senderLock: senderLock) : 0
  }

  /// The loops' intervals, short so that tests see them run.
  static var intervals: WebhookServer.Intervals {
    var intervals = WebhookServer.Intervals()
    intervals.senderPoll = 0.05
    intervals.policyPoll = 0.1
    intervals.firstPrune = 0.1
    intervals.prune = 0.2
    intervals.gauges = 0.05
    return intervals
  }

  /// Shuts the server down, then the stand-in, waiting on GCD threads (never a cooperative one,
  /// which the loops being stopped and other tests' handlers need).
  func stop() async {
    await server.stop()
    if ownsStandIn { await Self.offPool { [standIn] in standIn.shutdown() } }
  }

  /// Runs blocking work on a GCD thread and waits for it without blocking the cooperative pool.
  static func offPool(_ work: @escaping @Sendable () -> Void) async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      DispatchQueue.global().async {
        work()
        continuation.resume()
      }
    }
  }

  /// A notification for the test app in Sandbox.
  static func notification(transaction: String = "2000000812345678") -> SimulatedNotification {
    var notification = SimulatedNotification()
    notification.bundleId = TestKey.bundleId
    notification.environment = "Sandbox"
    notification.appAppleId = nil
    notification.transactionId = transaction
    return notification
  }

  /// The signed body of `notification`; the stand-in learns the transaction's product type, as
  /// Apple knows it, so the replies are held to the rules that depend on it.
  func body(_ notification: SimulatedNotification = ServerFixture.notification()) throws -> Data {
    standIn.register(
      notification.transactionId,
      ConsumptionValidationContext(productType: ProductType(rawValue: notification.productType)))
    return try notification.body(signedBy: authority)
  }

  /// POSTs `body` to the webhook and returns the status and answer.
  func post(_ body: Data, path: String = "/apple/notifications") async throws -> (Int, String) {
    var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)\(path)")!)
    request.httpMethod = "POST"
    request.httpBody = body
    let (data, response) = try await URLSession.shared.data(for: request)
    return ((response as? HTTPURLResponse)?.statusCode ?? 0, String(decoding: data, as: UTF8.self))
  }

  /// GETs `path`.
  func get(_ path: String) async throws -> (Int, String) {
    let (data, response) = try await URLSession.shared.data(
      from: URL(string: "http://127.0.0.1:\(port)\(path)")!)
    return ((response as? HTTPURLResponse)?.statusCode ?? 0, String(decoding: data, as: UTF8.self))
  }

  /// GETs `path` from a server on loopback `port`; the body.
  static func get(port: Int, _ path: String) async throws -> String {
    let (data, _) = try await URLSession.shared.data(
      from: URL(string: "http://127.0.0.1:\(port)\(path)")!)
    return String(decoding: data, as: UTF8.self)
  }

  /// Waits (up to `seconds`) until `condition` holds; returns whether it did.
  static func eventually(within seconds: Double = 10, _ condition: () throws -> Bool) async rethrows
    -> Bool
  {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
      if try condition() { return true }
      try? await Task.sleep(nanoseconds: 20_000_000)
    }
    return try condition()
  }

  private static func serverConfiguration(maximumBodyBytes: Int) throws -> ServerConfiguration {
    let json = """
      {"apps": [{"bundleId": "com.example", "environment": "Sandbox", "policy": "p.policy"}],
       "server": {"listen": "127.0.0.1:0", "maxBodyBytes": \(maximumBodyBytes), "webhookPath": "/apple/notifications"}}
      """
    let root = try JSONValue.parse(Data(json.utf8)).objectValue ?? [:]
    return try ReckonConfiguration(ConfigurationReader(root, path: ""), baseDirectory: "/tmp")
      .server
  }
}

/// Facts every request gets: consented (unless told otherwise), delivered, 10% used, no sample.
struct FixedFacts: FactSource {
  let name = "app-db"
  var consented = true

  func facts(for keys: RequestKeys) async throws -> [String: Value] {
    [
      "customer.consented": .boolean(consented),
      "delivery.status": .enumeration(FactSchema.deliveryStatus.ordinal(of: "DELIVERED") ?? 0),
      "product.sample_offered": .boolean(false),
      "usage.consumed": .percent(10),
    ]
  }
}

/// The JSON lines the server logged.
final class LogLines: @unchecked Sendable {
  private let lock = NSLock()
  private var lines: [String] = []

  func append(_ line: String) { lock.withLock { lines.append(line) } }

  var all: [String] { lock.withLock { lines } }
}
