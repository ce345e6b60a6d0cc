import Foundation
import ReckonAppStore
import ReckonTestSupport
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The short, bounded version of `reckon-bench soak`: the built `reckon serve` fed a few hundred
/// signed notifications over loopback. Every one is answered 200 and its reply reaches the
/// stand-in exactly once; the server's memory is printed at rest and after the load.
@Suite(.serialized) struct BoundedLoadTests {
  static let count = 300
  static let timeLimit = 60.0

  @Test func aFewHundredNotificationsAreAllAnsweredAndDeliveredOnce() async throws {
    let binary = try CrashRecoveryTests.reckonBinary()
    let (standIn, standInURL) = try TestKey.standIn()
    let authority = try LocalCertificateAuthority()
    let folder = try ServeChild.workspace(standInURL, authority, name: "load")
    let serve = try ServeChild.launch(binary, folder: folder)
    let process = serve.process
    defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
    let port = try #require(await serve.port(within: 20), "reckon serve did not start")
    let endpoint = try #require(URL(string: "http://127.0.0.1:\(port)/apple/notifications"))
    let atRest = Self.residentMegabytes(process.processIdentifier)

    let started = Date()
    var answered = 0
    var latencies: [Double] = []
    for index in 0..<Self.count where Date().timeIntervalSince(started) < Self.timeLimit {
      var notification = ServerFixture.notification()
      notification.notificationUUID = "00000000-0000-4000-8000-\(String(format: "%012d", index))"
      // A request per transaction: copies for one open transaction would be repeats.
      notification.transactionId = String(2_000_000_900_000_000 + index)
      var request = URLRequest(url: endpoint)
      request.httpMethod = "POST"
      request.httpBody = try notification.body(signedBy: authority)
      let sent = Date()
      let (_, response) = try await URLSession.shared.data(for: request)
      if (response as? HTTPURLResponse)?.statusCode == 200 { answered += 1 }
      latencies.append(Date().timeIntervalSince(sent) * 1_000)
    }
    let elapsed = Date().timeIntervalSince(started)
    let underLoad = Self.residentMegabytes(process.processIdentifier)
    let delivered = await ServerFixture.eventually(within: 30) {
      standIn.requests.count >= Self.count
    }
    await serve.terminate()
    await ServerFixture.offPool { standIn.shutdown() }

    latencies.sort()
    print(
      String(
        format:
          "bounded load: %d notifications in %.1f s (%.0f/s, debug build), p50 %.1f ms, p99 %.1f ms; RSS at rest %.1f MB, after load %.1f MB",
        latencies.count, elapsed, Double(latencies.count) / elapsed, latencies[latencies.count / 2],
        latencies[latencies.count * 99 / 100], atRest, underLoad))
    #expect(latencies.count == Self.count, "the time limit cut the run short")
    #expect(answered == Self.count)
    #expect(delivered)
    #expect(standIn.requests.count == Self.count)
    #expect(standIn.requests.allSatisfy { $0.status == 202 })
    #expect(process.terminationStatus == 0)
  }

  /// VmRSS of `pid` in MB, from /proc.
  static func residentMegabytes(_ pid: Int32) -> Double {
    let status = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
    let line = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") } ?? ""
    return (line.split(separator: " ").compactMap { Double($0) }.first ?? 0) / 1_024
  }
}
