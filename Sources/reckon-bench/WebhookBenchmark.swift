import Foundation
import ReckonAppStore
import ReckonEngine
import ReckonFacts
import ReckonPolicy
import ReckonServer
import ReckonState
import ReckonStateSQLite
import ReckonSupport

/// `reckon-bench webhook [--count N] [--seconds S] [--connections C] [--rate R] [--paced N]
/// [--direct N]`:
/// the webhook on loopback with verification on (a local CA's chain, ES256, nested transaction),
/// recording, facts, decision and enqueue behind every 200. Measures the sustained rate with C
/// keep-alive connections sending back to back (at most N requests or S seconds), then p50/p99
/// latency from request to 200 at R requests/s (N paced requests or S seconds). First, N
/// requests through the pipeline alone (no HTTP) give the cost of the work behind the socket.
func runWebhookBenchmark(options: BenchmarkOptions) async throws {
  let count = options.int("count", 6_000)
  let seconds = Double(options.int("seconds", 10))
  // Sixteen connections by default: each waits for its answer before sending again, so four could
  // offer no more than four divided by the latency, and the figure measured the client's patience
  // rather than what the server sustains.
  let connections = options.int("connections", 16)
  let rate = Double(options.int("rate", 200))
  let paced = options.int("paced", 2_000)
  let authority = try LocalCertificateAuthority()
  let direct = options.int("direct", 200)
  print("signing \(count + paced + direct) notifications…")
  let bodies = try (0..<(count + paced + direct)).map { index in
    var notification = SimulatedNotification()
    notification.transactionId = String(3_000_000_000 + index)
    return try notification.body(signedBy: authority)
  }
  let server = try makeWebhookServer(
    authority,
    state: try SQLiteStateStore(
      path: ScratchFiles.database("bench-webhook"), rules: .appStore, backgroundCheckpoints: true))
  if direct > 0 {
    // The pipeline without HTTP, on fresh requests, for comparison.
    let sample = Array(bodies[(count + paced)...])
    let started = Date()
    for body in sample { _ = await server.service.answer(body: body) }
    let each = Date().timeIntervalSince(started) / Double(sample.count)
    print(
      String(
        format: "pipeline alone (no HTTP), %d requests: %.2f ms each, %.0f/s on one task",
        sample.count, each * 1_000, 1 / each))
  }
  let port = try server.start()
  defer { server.shutdown() }

  let processBefore = Stopwatch.processCPUSeconds()
  let sustained = try await offPool {
    try sustainedRate(
      ports: [port], bodies: Array(bodies[..<count]), connections: connections, limit: seconds)
  }
  let processCPU = Stopwatch.processCPUSeconds() - processBefore
  print(
    String(
      format:
        "sustained: %d notifications in %.2f s over %d connections = %.0f/s (target >= 2000/s)",
      sustained.done, sustained.elapsed, connections, Double(sustained.done) / sustained.elapsed))
  // CPU time, unlike the rate, does not depend on what else the machine runs: the server's share
  // bounds what it could sustain on this machine's cores.
  let perRequest = 1e6 / Double(max(1, sustained.done))
  let serverCPU = (processCPU - sustained.clientCPU) * perRequest
  print(
    String(
      format:
        "cpu per notification: server %.0f us, benchmark client %.0f us (bound on %d cores: %.0f/s)",
      serverCPU, sustained.clientCPU * perRequest, ProcessInfo.processInfo.activeProcessorCount,
      Double(ProcessInfo.processInfo.activeProcessorCount) * 1e6 / max(1, serverCPU)))
  let latencies = try await offPool {
    try pacedLatencies(
      ports: [port], bodies: Array(bodies[count..<(count + paced)]), rate: rate, limit: seconds)
  }.sorted()
  guard !latencies.isEmpty else {
    print("at \(Int(rate))/s: no requests answered 200 (--paced 0 skips this part)")
    return
  }
  let p50 = latencies[latencies.count / 2] * 1_000
  let p99 = latencies[min(latencies.count - 1, latencies.count * 99 / 100)] * 1_000
  print(
    String(
      format: "at %.0f/s: %d requests, p50 %.2f ms, p99 %.2f ms, max %.2f ms (target p99 < 5 ms)",
      rate, latencies.count, p50, p99, (latencies.last ?? 0) * 1_000))
}

/// The benchmark's webhook server over `state`, trusting `authority`, deciding by a policy that
/// reads `history.*`.
func makeWebhookServer(_ authority: LocalCertificateAuthority, state: any StateStore) throws
  -> WebhookServer
{
  let policy = """
    policy "bench"
    rule "asked again"
      when history.earlier_requests >= 1
      then refund GRANT_FULL
    otherwise refund DECLINE
    """
  let service = try ReckonService(
    apps: [
      .init(
        bundleId: "com.example.coins", appAppleId: 1_234_567_890, environment: .production,
        policy: .text(name: "bench.policy", policy))
    ], factSources: [.init(BenchFacts())],
    state: state, roots: [authority.root])
  let json =
    #"{"apps": [{"bundleId": "b", "environment": "Sandbox", "policy": "p"}], "server": {"listen": "127.0.0.1:0"}}"#
  let root = try JSONValue.parse(Data(json.utf8)).objectValue ?? [:]
  let configuration = try ReckonConfiguration(
    ConfigurationReader(root, path: ""), baseDirectory: "/tmp")
  return WebhookServer(
    service: service, configuration: configuration.server, metrics: ReckonMetrics(),
    logger: JSONLogger { _ in })
}

/// Notifications answered with `connections` keep-alive connections sending back to back,
/// spread over `ports` in turn, for at most `limit` seconds.
func sustainedRate(ports: [Int], bodies: [Data], connections: Int, limit: Double) throws
  -> (done: Int, elapsed: Double, clientCPU: Double)
{
  let next = BenchCounter()
  let failures = BenchCounter()
  let clientCPU = BenchSeconds()
  let deadline = Date().addingTimeInterval(limit)
  let group = DispatchGroup()
  let started = Date()
  for connection in 0..<connections {
    let port = ports[connection % ports.count]
    group.enter()
    Thread {
      let cpuBefore = Stopwatch.threadCPUSeconds()
      defer {
        clientCPU.add(Stopwatch.threadCPUSeconds() - cpuBefore)
        group.leave()
      }
      guard let client = try? WebhookBenchmarkClient(port: port) else {
        failures.add()
        return
      }
      while Date() < deadline {
        let index = next.add()
        guard index < bodies.count else { return }
        if (try? client.post("/apple/notifications", body: bodies[index])) != 200 { failures.add() }
      }
    }.start()
  }
  group.wait()
  let elapsed = Date().timeIntervalSince(started)
  if failures.value > 0 { print("warning: \(failures.value) requests were not answered 200") }
  return (min(next.value, bodies.count), elapsed, clientCPU.value)
}

/// A thread-safe sum of seconds.
private final class BenchSeconds: @unchecked Sendable {
  private let lock = NSLock()
  private var total = 0.0

  func add(_ seconds: Double) { lock.withLock { total += seconds } }

  var value: Double { lock.withLock { total } }
}

/// The latency of each request sent at `rate` a second, to `ports` in turn.
func pacedLatencies(ports: [Int], bodies: [Data], rate: Double, limit: Double) throws
  -> [Double]
{
  let clients = try ports.map { try WebhookBenchmarkClient(port: $0) }
  var latencies: [Double] = []
  let start = DispatchTime.now().uptimeNanoseconds
  for (index, body) in bodies.enumerated() {
    let due = start + UInt64(Double(index) / rate * 1e9)
    let now = DispatchTime.now().uptimeNanoseconds
    if due > now { usleep(UInt32((due - now) / 1_000)) }
    if Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9 > limit { break }
    let sent = DispatchTime.now().uptimeNanoseconds
    guard try clients[index % clients.count].post("/apple/notifications", body: body) == 200
    else { continue }
    latencies.append(Double(DispatchTime.now().uptimeNanoseconds - sent) / 1e9)
  }
  return latencies
}

/// The app database's answer for every request.
struct BenchFacts: FactSource {
  let name = "app-db"

  func facts(for keys: RequestKeys) async throws -> [String: Value] {
    [
      "customer.consented": .boolean(true),
      "delivery.status": .enumeration(FactSchema.deliveryStatus.ordinal(of: "DELIVERED") ?? 0),
      "product.sample_offered": .boolean(false), "usage.consumed": .percent(10),
    ]
  }
}

/// A thread-safe counter; `add()` returns the value before adding.
private final class BenchCounter: @unchecked Sendable {
  private let lock = NSLock()
  private var count = 0

  @discardableResult func add() -> Int {
    lock.withLock {
      defer { count += 1 }
      return count
    }
  }

  var value: Int { lock.withLock { count } }
}
