import Foundation
import ReckonAppStore
import ReckonStateSQLite
import ReckonTestSupport
import ReckonTools

/// `reckon-bench health [--requests N] [--pollers P] [--rate R] [--paced N] [--state PATH]`:
/// `/healthz` and `/metrics` on a large SQLite state (N generated past requests, each decided,
/// answered and with Apple's outcome; kept at PATH, and used again from there, with `--state`),
/// polled by P clients as fast as each gets its answer, and what that
/// does to the webhook: its p50/p99 at R notifications a second, alone and beside the pollers.
/// Also prints how long one reading of the gauges takes, which a thread of its own does once a
/// second, off every request's path.
func runHealthBenchmark(options: BenchmarkOptions) async throws {
  let requests = options.int("requests", 100_000)
  let pollers = options.int("pollers", 8)
  let rate = Double(options.int("rate", 200))
  let paced = options.int("paced", 2_000)
  let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
    "bench-health-\(UUID().uuidString)"
  ).path
  defer { try? FileManager.default.removeItem(atPath: folder) }
  let kept = options.string("state", "")
  let path = kept.isEmpty ? folder + "/reckon-state.sqlite" : kept
  if !FileManager.default.fileExists(atPath: path) {
    let generator = PastRequestGenerator(count: requests, seed: 11)
    let policy = FactsBenchmarkDatabase.repository.appendingPathComponent(
      "policies/targeted.policy"
    ).path
    let files = try GeneratedDataWriter.write(generator, to: folder, policyPath: policy)
    let filling = Date()
    _ = try await GeneratedHistory.write(
      generator, configuration: files.configuration, to: path, state: SQLiteStateOpener())
    print(String(format: "filled the state in %.0f s", Date().timeIntervalSince(filling)))
  }
  let bytes = (try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
  let store = try SQLiteStateStore(path: path, rules: .appStore, backgroundCheckpoints: true)
  print(
    String(
      format: "state: %d requests, %.0f MB", try store.requestSpan(decided: false).count,
      Double(bytes) / 1_048_576))

  var readings: [Double] = []
  for _ in 0..<5 {
    let started = Date()
    _ = try store.gauges(now: Date())
    readings.append(Date().timeIntervalSince(started))
  }
  print(
    String(
      format: "one reading of the gauges (off the request path, once a second): median %.0f ms",
      readings.sorted()[2] * 1_000))

  let authority = try LocalCertificateAuthority()
  let bodies = try (0..<(2 * paced)).map { index in
    var notification = SimulatedNotification()
    notification.transactionId = String(4_000_000_000 + index)
    return try notification.body(signedBy: authority)
  }
  let server = try makeWebhookServer(authority, state: store)
  let port = try server.start()
  defer { server.shutdown() }
  let seconds = Double(paced) / rate + 5

  let alone = try await offPool {
    try pacedLatencies(
      ports: [port], bodies: Array(bodies[..<paced]), rate: rate, limit: seconds)
  }.sorted()
  let polling = HealthPollers(port: port, count: pollers)
  let beside = try await offPool {
    try pacedLatencies(
      ports: [port], bodies: Array(bodies[paced...]), rate: rate, limit: seconds)
  }.sorted()
  let probes = polling.stop().sorted()
  print(
    String(
      format: "%d pollers: %d calls of /healthz and /metrics, %.0f/s, p50 %.2f ms, p99 %.2f ms, "
        + "max %.2f ms", pollers, probes.count, Double(probes.count) / polling.elapsed,
      percentile(probes, 50) * 1_000, percentile(probes, 99) * 1_000,
      (probes.last ?? 0) * 1_000))
  for (label, latencies) in [("alone", alone), ("beside the pollers", beside)] {
    print(
      String(
        format: "webhook at %.0f/s %@: %d requests, p50 %.2f ms, p99 %.2f ms, max %.2f ms", rate,
        label, latencies.count, percentile(latencies, 50) * 1_000,
        percentile(latencies, 99) * 1_000, (latencies.last ?? 0) * 1_000))
  }
}

/// The `p`th percentile of sorted `values`, 0 when there are none.
private func percentile(_ values: [Double], _ p: Int) -> Double {
  values.isEmpty ? 0 : values[min(values.count - 1, values.count * p / 100)]
}

/// Clients that GET `/healthz` and `/metrics` in turn, each as soon as its last answer came,
/// on threads of their own until stopped; the latency of every call.
private final class HealthPollers: @unchecked Sendable {
  private let lock = NSLock()
  private var latencies: [Double] = []
  private var stopped = false
  private let group = DispatchGroup()
  private let started = Date()
  private(set) var elapsed: Double = 0

  init(port: Int, count: Int) {
    for poller in 0..<count {
      group.enter()
      Thread { [self] in
        defer { group.leave() }
        guard let client = try? WebhookBenchmarkClient(port: port) else { return }
        var call = poller
        while !lock.withLock({ stopped }) {
          let path = call % 2 == 0 ? "/healthz" : "/metrics"
          let sent = DispatchTime.now().uptimeNanoseconds
          guard (try? client.get(path)) == 200 else { return }
          let took = Double(DispatchTime.now().uptimeNanoseconds - sent) / 1e9
          lock.withLock { latencies.append(took) }
          call += 1
        }
      }.start()
    }
  }

  /// Stops the pollers, waits for them, and returns every call's latency.
  func stop() -> [Double] {
    lock.withLock { stopped = true }
    group.wait()
    elapsed = Date().timeIntervalSince(started)
    return lock.withLock { latencies }
  }
}
