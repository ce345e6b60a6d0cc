import Foundation
import ReckonAppStore
import ReckonEngine
import ReckonSQLite
import ReckonState
import ReckonStateSQLite
import ReckonTestSupport
import ReckonTools

/// `reckon-bench state-size [--count N] [--plain]`: the bytes a SQLite state database keeps per
/// request, as `reckon generate --state yes` leaves one (each request decided by
/// policies/targeted.policy with its explanation, its answer sent, Apple's outcome attached),
/// but with every notification stored as the App Store signs it (`AppleShapedNotification`:
/// payload, transaction and renewal info, each with Apple's three-certificate chain); `--plain`
/// stores the generated lines instead, as the docs' earlier figure did. Prints the file's size
/// per request after a checkpoint, and each table's and index's share (SQLite's `dbstat`).
func runStateSizeBenchmark(options: BenchmarkOptions) async throws {
  let count = options.int("count", 2_000)
  let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
    "bench-state-size-\(UUID().uuidString)"
  ).path
  defer { try? FileManager.default.removeItem(atPath: folder) }
  let generator = PastRequestGenerator(count: count, seed: 7)
  let policy = FactsBenchmarkDatabase.repository.appendingPathComponent(
    "policies/targeted.policy"
  ).path
  let files = try GeneratedDataWriter.write(generator, to: folder, policyPath: policy)
  let signer = try AppleShapedNotification()
  let plain = options.flag("plain")
  var sizes: [Int] = []
  var sample: [Data] = []
  let path = folder + "/reckon-state.sqlite"
  let decided = try await GeneratedHistory.write(
    generator, configuration: files.configuration, to: path, state: SQLiteStateOpener(),
    received: plain
      ? nil
      : { request in
        let body = try signer.body(StateSizeBenchmark.simulated(request))
        sizes.append(body.count)
        if sample.count < 200 { sample.append(body) }
        return body
      })
  let bytes = (try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
  let notification =
    plain ? "generated lines" : "signed as Apple does, \(sizes.reduce(0, +) / max(1, count)) B each"
  print("\(count) requests (\(decided) decided), notifications \(notification)")
  print(
    String(
      format: "state file: %.2f MB, %.2f KB per request (target <= 5 KB)",
      Double(bytes) / 1_048_576, Double(bytes) / 1_024 / Double(max(1, count))))
  if !sample.isEmpty { try StateSizeBenchmark.timePacking(sample) }
  for (name, size) in try StateSizeBenchmark.tableSizes(path) where size / Double(count) >= 10 {
    let padded = name.padding(toLength: 28, withPad: " ", startingAt: 0)
    print("  " + padded + String(format: "%6.2f KB per request", size / 1_024 / Double(count)))
  }
}

enum StateSizeBenchmark {
  /// The signed form of a generated request: its notification and transaction as Apple sends
  /// them.
  static func simulated(_ request: RefundRequest) -> SimulatedNotification {
    var simulated = SimulatedNotification()
    simulated.notificationUUID = request.notification.notificationUUID ?? simulated.notificationUUID
    simulated.bundleId = request.keys.bundleId ?? simulated.bundleId
    simulated.environment = request.notification.data?.environment?.rawValue ?? "Production"
    simulated.transactionId = request.transactionId ?? simulated.transactionId
    simulated.originalTransactionId = request.transaction.originalTransactionId
    simulated.productId = request.transaction.productId ?? simulated.productId
    simulated.productType = request.transaction.rawType ?? simulated.productType
    simulated.appAccountToken = request.transaction.appAccountToken?.uuidString.lowercased()
    simulated.purchaseDate = request.transaction.purchaseDate ?? simulated.purchaseDate
    simulated.signedDate = request.receivedAt
    return simulated
  }

  /// Prints the CPU time packing and unpacking takes per notification of `sample`, certificate
  /// ids given from memory as a backend's cache gives them.
  static func timePacking(_ sample: [Data]) throws {
    var ids: [Data: Int64] = [:]
    var stored: [(bytes: Data, format: Int64)] = []
    let packing = Stopwatch.processCPUSeconds()
    for body in sample {
      stored.append(
        try PackedNotification.stored(body) { der throws(StateError) in
          if let id = ids[der] { return id }
          ids[der] = Int64(ids.count + 1)
          return Int64(ids.count)
        })
    }
    let unpacking = Stopwatch.processCPUSeconds()
    let certificates = Dictionary(uniqueKeysWithValues: ids.map { ($1, $0) })
    for (bytes, format) in stored {
      _ = try PackedNotification.received(bytes, format: format, what: "a sample") {
        id throws(StateError) in certificates[id] ?? Data()
      }
    }
    let done = Stopwatch.processCPUSeconds()
    print(
      String(
        format: "packing %.0f us, reading back %.0f us per notification (CPU, %d of them)",
        (unpacking - packing) * 1e6 / Double(sample.count),
        (done - unpacking) * 1e6 / Double(sample.count), sample.count))
  }

  /// Each table's and index's bytes, largest first, from SQLite's `dbstat` table.
  static func tableSizes(_ path: String) throws -> [(String, Double)] {
    let database = try SQLiteDatabase(path: path, options: [.readOnly, .noMutex])
    return try database.query(
      "SELECT name, SUM(pgsize) FROM dbstat GROUP BY name ORDER BY 2 DESC"
    ).compactMap { row in
      guard let name = row.text(0), let size = row.double(1), size > 0 else { return nil }
      return (name, size)
    }
  }
}
