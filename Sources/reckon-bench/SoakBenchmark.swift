import Foundation
import ReckonAppStore
import ReckonStandIn

/// `reckon-bench soak [--minutes M] [--rate R] [--sample S] [--reckon PATH]`: the built
/// `reckon serve` as its own process on loopback (a local CA's chain, a SQLite fact source, the
/// sender PUTting to an in-process stand-in), fed signed notifications at R/s for M minutes.
/// Prints the server's RSS at rest before and after, a row per S seconds (RSS, requests,
/// p50/p99), the RSS trend over the second half, and checks every notification was answered
/// 200 and its reply reached the stand-in. Build first: `swift build -c release`.
func runSoakBenchmark(options: BenchmarkOptions) async throws {
  let minutes = options.double("minutes", 10)
  let rate = options.double("rate", 100)
  let sample = options.double("sample", 10)
  let binary = try options.values["reckon"] ?? SoakWorkspace.siblingReckon()
  let workspace = try SoakWorkspace()
  let server = try SoakServer(binary: binary, workspace: workspace)
  defer { server.stop() }
  print("reckon serve pid \(server.pid) at port \(server.port); \(binary)")

  try await Task.sleep(nanoseconds: 3_000_000_000)
  let restBefore = server.residentMegabytes()
  print(
    String(
      format: "RSS at rest after start: %.1f MB, of which %.1f MB anonymous (target < 40 MB)",
      restBefore, server.anonymousMegabytes()))

  let total = Int(minutes * 60 * rate)
  let rows = try await offPool {
    try SoakLoad(port: server.port, authority: workspace.authority, rate: rate).run(
      count: total, sampleSeconds: sample, server: server)
  }
  let growth = SoakTrend(rows.map { ($0.elapsed, $0.megabytes) })
  print(
    String(
      format: "RSS trend over the second half: %+.3f MB/min (%+.2f MB over %.1f min)",
      growth.slopePerMinute, growth.slopePerMinute * minutes / 2, minutes / 2))

  let delivered = await workspace.waitForDeliveries(total, within: 60)
  try await Task.sleep(nanoseconds: 5_000_000_000)
  let restAfter = server.residentMegabytes()
  let answered = rows.reduce(0) { $0 + $1.answered }
  let refused = rows.reduce(0) { $0 + $1.notAnswered200 }
  print(
    String(
      format:
        "sent %d notifications: %d answered 200, %d not; %d replies reached the stand-in; peak RSS %.1f MB",
      total, answered, refused, delivered, server.peakMegabytes()))
  print(
    String(
      format: "RSS at rest after the soak: %.1f MB, of which %.1f MB anonymous (was %.1f MB)",
      restAfter, server.anonymousMegabytes(), restBefore))
}

/// A row of the soak: one sampling window.
struct SoakRow {
  let elapsed: Double
  let megabytes: Double
  let answered: Int
  let notAnswered200: Int
  let p50: Double
  let p99: Double
}

/// Least-squares slope of RSS against time over the second half of the samples.
struct SoakTrend {
  let slopePerMinute: Double

  init(_ points: [(seconds: Double, megabytes: Double)]) {
    let half = Array(points.suffix(max(2, points.count / 2)))
    let n = Double(half.count)
    let meanX = half.map(\.seconds).reduce(0, +) / n
    let meanY = half.map(\.megabytes).reduce(0, +) / n
    let covariance = half.map { ($0.seconds - meanX) * ($0.megabytes - meanY) }.reduce(0, +)
    let variance = half.map { ($0.seconds - meanX) * ($0.seconds - meanX) }.reduce(0, +)
    slopePerMinute = variance > 0 ? covariance / variance * 60 : 0
  }
}

/// Paced signed notifications on one keep-alive connection, sampled every few seconds.
struct SoakLoad {
  let port: Int
  let authority: LocalCertificateAuthority
  let rate: Double

  func run(count: Int, sampleSeconds: Double, server: SoakServer) throws -> [SoakRow] {
    let client = try WebhookBenchmarkClient(port: port)
    var rows: [SoakRow] = []
    var window: [Double] = []
    var refused = 0
    let start = DispatchTime.now().uptimeNanoseconds
    var nextSample = sampleSeconds
    print("   time      RSS     anon  answered  p50 ms  p99 ms")
    for index in 0..<count {
      var notification = SimulatedNotification()
      notification.transactionId = String(5_000_000_000 + index)
      let body = try notification.body(signedBy: authority)
      let due = start + UInt64(Double(index) / rate * 1e9)
      let now = DispatchTime.now().uptimeNanoseconds
      if due > now { usleep(UInt32((due - now) / 1_000)) }
      let sent = DispatchTime.now().uptimeNanoseconds
      if try client.post("/apple/notifications", body: body) == 200 {
        window.append(Double(DispatchTime.now().uptimeNanoseconds - sent) / 1e6)
      } else {
        refused += 1
      }
      let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
      if elapsed >= nextSample || index == count - 1 {
        window.sort()
        let row = SoakRow(
          elapsed: elapsed, megabytes: server.residentMegabytes(), answered: window.count,
          notAnswered200: refused, p50: window.isEmpty ? 0 : window[window.count / 2],
          p99: window.isEmpty ? 0 : window[min(window.count - 1, window.count * 99 / 100)])
        print(
          String(
            format: "%6.0f s  %5.1f MB  %5.1f MB  %7d  %6.2f  %6.2f", row.elapsed, row.megabytes,
            server.anonymousMegabytes(), row.answered, row.p50, row.p99))
        rows.append(row)
        fflush(nil)  // rows show as they come, even when printed into a file
        window.removeAll(keepingCapacity: true)
        refused = 0
        nextSample += sampleSeconds
      }
    }
    return rows
  }
}
