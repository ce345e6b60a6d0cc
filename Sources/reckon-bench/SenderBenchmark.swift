import Foundation
import ReckonAppStore
import ReckonEngine
import ReckonHTTP
import ReckonStandIn
import ReckonState
import ReckonStateSQLite
import ReckonSupport
import ReckonTestSupport

/// `reckon-bench sender [--entries N] [--send N] [--rate R] [--concurrency N] [--connections N]
/// [--durability normal|full|both] [--key PATH]`: the durable enqueue rate
/// (request, decision and outbox entry committed) and the sender's achieved rate against the
/// local stand-in at a configured limit.
func runSenderBenchmark(options: BenchmarkOptions) async throws {
  let enqueueCount = options.int("entries", 20_000)
  let modes: [StateDurability] =
    options.string("durability", "both") == "both"
    ? [.normal, .full]
    : [
      StateDurability(rawValue: options.string("durability", "").uppercased())
        ?? .normal
    ]
  for durability in modes {
    let (decisions, whole) = try measureEnqueue(count: enqueueCount, durability: durability)
    print(
      String(
        format:
          "enqueue (WAL, synchronous=%@): %d decision+entry transactions, %.0f/s (target >= 5000); "
          + "with the notification's own commit first: %.0f requests/s", durability.rawValue,
        enqueueCount, decisions, whole))
  }
  let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()
  let keyPath = options.string(
    "key",
    root.appendingPathComponent("Tests/Fixtures/apple/testSigningKey.p8").path)
  try await measureSender(
    count: options.int("send", 10_000), rate: Double(options.int("rate", 1_000)), keyPath: keyPath,
    options: options)
}

private func temporaryStore(_ durability: StateDurability) throws -> SQLiteStateStore {
  try SQLiteStateStore(
    path: ScratchFiles.database("bench-sender"), rules: .appStore, durability: durability)
}

private let benchBody = Data(
  #"{"customerConsented":true,"deliveryStatus":"DELIVERED","sampleContentProvided":true,"consumptionPercentage":25000}"#
    .utf8)

private func notification(_ index: Int, app: AppStoreApp, at date: Date) -> NotificationRecord {
  NotificationRecord(
    notificationUUID: UUID().uuidString, notificationType: "CONSUMPTION_REQUEST",
    transactionId: "\(index)",
    bundleId: app.bundleId, environment: app.environment.rawValue, receivedAt: date,
    rawNotification: Data(repeating: 65, count: 2_000))
}

private func enqueue(_ store: SQLiteStateStore, index: Int, app: AppStoreApp, at date: Date) throws
{
  let request = try store.recordNotification(notification(index, app: app, at: date)).requestId
  try decide(store, request: request, index: index, app: app, at: date)
}

/// One decision and its outbox entry, committed in one transaction.
private func decide(
  _ store: SQLiteStateStore, request: Int64, index: Int, app: AppStoreApp, at date: Date
) throws {
  let decision = DecisionRecord(
    policyName: "bench", policyVersion: "1", policySHA256: String(repeating: "0", count: 64),
    action: "respond", rule: "r",
    reason: nil, body: benchBody, factsJSON: Data(repeating: 66, count: 1_000),
    explanationJSON: Data(repeating: 67, count: 2_000),
    decidedAt: date)
  let outbox = OutboxEnqueue(
    app: app.key, transactionId: "\(index)",
    body: try CheckedBody(appStore: benchBody, context: .init()),
    deadline: date.addingTimeInterval(43_200))
  _ = try store.recordDecision(decision, requestId: request, enqueue: outbox)
}

/// Decision + entry transactions per second (notifications recorded beforehand), then whole
/// requests (notification commit, then decision + entry commit) per second on a fresh file.
private func measureEnqueue(count: Int, durability: StateDurability) throws -> (
  Double, Double
) {
  let app = AppStoreApp(bundleId: "com.example", environment: .production)
  let store = try temporaryStore(durability)
  let now = Date()
  let requests = try (0..<count).map {
    try store.recordNotification(notification($0, app: app, at: now)).requestId
  }
  var start = Date()
  for (index, request) in requests.enumerated() {
    try decide(store, request: request, index: index, app: app, at: now)
  }
  let decisions = Double(count) / Date().timeIntervalSince(start)
  let fresh = try temporaryStore(durability)
  start = Date()
  for index in 0..<count { try enqueue(fresh, index: index, app: app, at: now) }
  return (decisions, Double(count) / Date().timeIntervalSince(start))
}

private func measureSender(count: Int, rate: Double, keyPath: String, options: BenchmarkOptions)
  async throws
{
  let key = try PrivateKey(path: keyPath)
  let standIn = try AppStoreStandIn(
    publicKeyPEM: key.publicKeyPEM(),
    expected: .init(issuerId: "bench-issuer", keyId: "BENCHKEY", bundleIds: ["com.example"]))
  let url = try standIn.start()
  defer { standIn.shutdown() }
  let store = try temporaryStore(.normal)
  let app = AppStoreApp(bundleId: "com.example", environment: .production)
  for index in 0..<count { try enqueue(store, index: index, app: app, at: Date()) }
  let configuration = try SenderSettings.production(perSecond: rate)
  let client = AppStoreAPIClient(
    issuerId: "bench-issuer", keyId: "BENCHKEY", key: key, baseURL: url,
    transport: CurlHTTPClient(maximumConnections: options.int("connections", 16)))
  let sender = OutboxSender(
    store: store, sender: client, configuration: configuration,
    maximumConcurrentSends: options.int("concurrency", 64), consentCheck: nil)
  let summary = try await sender.drainDue()
  let times = standIn.requests.map(\.receivedAt).sorted()
  guard let first = times.first, let last = times.last, times.count > 1 else {
    return print("sender: nothing sent")
  }
  let achieved = Double(times.count - 1) / last.timeIntervalSince(first)
  // The pace leaves each second a jitter allowance, so its aim is a little under the limit.
  let aim = 1 / SendPace.spacing(rate: rate)
  print(
    String(
      format:
        "sender: %d sent (%d requests) at a configured %.0f/s, paced at %.1f/s: achieved %.1f/s (%.2f%% off the pace; target within 2%%)",
      summary.sent, times.count, rate, aim, achieved, abs(achieved - aim) / aim * 100))
}
