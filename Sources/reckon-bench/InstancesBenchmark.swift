import Foundation
import ReckonAppStore
import ReckonEngine
import ReckonHTTP
import ReckonServer
import ReckonStandIn
import ReckonState
import ReckonStatePostgres
import ReckonStateSQLite
import ReckonSupport
import ReckonTestSupport

/// `reckon-bench instances [--count N] [--seconds S] [--connections C] [--rate R] [--paced N]
/// [--send N]`: the webhook's ingest (verify, record, decide, enqueue) on one SQLite instance and
/// on one, two and three instances sharing one PostgreSQL database, measured in one run: the
/// sustained rate with C connections spread over the instances, p50/p99 at R requests/s sent to
/// them in turn, and the database's bytes per request. Then three senders on one database
/// against the stand-in at Production's 50/s: the rate they reach together and their busiest
/// second. The instances share this process and its cores, as containers on one machine do: the
/// figures show what the shared database costs, not what more machines add. PostgreSQL is the
/// test server `TestPostgres` starts (or `RECKON_TEST_POSTGRES_URL`).
func runInstancesBenchmark(options: BenchmarkOptions) async throws {
  let count = options.int("count", 3_000)
  let seconds = Double(options.int("seconds", 5))
  let connections = options.int("connections", 12)
  let rate = Double(options.int("rate", 200))
  let paced = options.int("paced", 600)
  let authority = try LocalCertificateAuthority()
  print("signing \(count + paced) notifications…")
  let bodies = try (0..<(count + paced)).map { index in
    var notification = SimulatedNotification()
    notification.transactionId = String(4_000_000_000 + index)
    return try notification.body(signedBy: authority)
  }
  let setups: [(name: String, instances: Int, postgres: Bool)] = [
    ("SQLite, 1 instance", 1, false), ("PostgreSQL, 1 instance", 1, true),
    ("PostgreSQL, 2 instances", 2, true), ("PostgreSQL, 3 instances", 3, true),
  ]
  for setup in setups {
    let url = setup.postgres ? try TestPostgres.freshDatabase() : nil
    let servers = try (0..<setup.instances).map { _ in
      try makeWebhookServer(
        authority,
        state: url.map { url throws in
          try PostgresStateStore(address: PostgresAddress(url: url), rules: .appStore)
        }
          ?? SQLiteStateStore(
            path: ScratchFiles.database("bench-instances"), rules: .appStore,
            backgroundCheckpoints: true))
    }
    // The schema's own pages, before any request.
    let emptyBytes = try url.map { url throws in
      try PostgresStateStore(address: PostgresAddress(url: url), rules: .appStore).databaseBytes()
    }
    let ports = try servers.map { try $0.start() }
    let sustained = try await offPool {
      try sustainedRate(
        ports: ports, bodies: Array(bodies[..<count]), connections: connections, limit: seconds)
    }
    let latencies = try await offPool {
      try pacedLatencies(
        ports: ports, bodies: Array(bodies[count...]), rate: rate, limit: seconds)
    }.sorted()
    var size = ""
    if let url {
      let bytes =
        try PostgresStateStore(address: PostgresAddress(url: url), rules: .appStore)
        .databaseBytes() - (emptyBytes ?? 0)
      let recorded = sustained.done + latencies.count
      size = String(
        format: ", database %.1f KB per request", Double(bytes) / 1_024 / Double(max(1, recorded)))
    }
    let p50 = latencies.isEmpty ? 0 : latencies[latencies.count / 2] * 1_000
    let p99 =
      latencies.isEmpty
      ? 0 : latencies[min(latencies.count - 1, latencies.count * 99 / 100)] * 1_000
    print(
      String(
        format:
          "%@: sustained %.0f/s (%d in %.2f s, %d connections); at %.0f/s p50 %.2f ms, p99 %.2f ms%@",
        setup.name, Double(sustained.done) / sustained.elapsed, sustained.done, sustained.elapsed,
        connections, rate, p50, p99, size))
    for server in servers { await server.stop(timeout: 5) }
  }
  let send = options.int("send", 500)
  if send > 0 { try await measureSharedSending(count: send) }
}

/// Three senders on one database, each with a store of its own, sending `count` replies to the
/// stand-in at Production's 50/s: their rate together and their busiest second.
private func measureSharedSending(count: Int) async throws {
  let url = try TestPostgres.freshDatabase()
  let (standIn, standInURL) = try TestKey.standIn()
  defer { standIn.shutdown() }
  let filler = try PostgresStateStore(address: PostgresAddress(url: url), rules: .appStore)
  for index in 0..<count {
    _ = try StateSamples.enqueued(in: filler, transaction: "5\(index)", at: Date())
  }
  let configuration = try SenderSettings.production(perSecond: 50)
  let senders = try (0..<3).map { _ in
    OutboxSender(
      store: try PostgresStateStore(address: PostgresAddress(url: url), rules: .appStore),
      sender: try TestKey.client(standInURL), configuration: configuration,
      consentCheck: nil)
  }
  let started = Date()
  let sent = try await withThrowingTaskGroup(of: Int.self) { group in
    for sender in senders { group.addTask { try await sender.drainDue().sent } }
    return try await group.reduce(0, +)
  }
  let elapsed = Date().timeIntervalSince(started)
  let times = standIn.requests.map(\.receivedAt).sorted()
  let busiest = busiestSecond(times)
  let rate = times.count > 1 ? Double(times.count - 1) / times.last!.timeIntervalSince(times[0]) : 0
  print(
    String(
      format:
        "3 senders, one PostgreSQL, limit 50/s: %d sent (%d requests) in %.1f s, together %.1f/s, busiest second %d (target at most 50)",
      sent, times.count, elapsed, rate, busiest))
}
