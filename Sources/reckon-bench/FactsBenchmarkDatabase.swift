import Foundation
import ReckonFacts
import ReckonSQLite

/// The benchmark's database: the schema and rows of examples/facts.sql, plus generated rows to
/// 1,000,000 purchases and their usage, 250,000 customers, 100,000 refunds and 10,000 support
/// overrides. Built once and kept in `.build/reckon-bench/`.
enum FactsBenchmarkDatabase {
  static let purchases = 1_000_000
  static let customers = 250_000
  static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()

  /// The database's path, building it first if needed.
  static func prepare(rebuild: Bool) throws -> String {
    let folder = repository.appendingPathComponent(".build/reckon-bench")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let path = folder.appendingPathComponent("facts-1m.sqlite").path
    if !rebuild, FileManager.default.fileExists(atPath: path) { return path }
    for suffix in ["", "-wal", "-shm"] {
      try? FileManager.default.removeItem(atPath: path + suffix)
    }
    print("building \(path) ...")
    do {
      let database = try SQLiteDatabase(
        path: path + ".partial", options: [.readWrite, .create, .noMutex])
      try database.execute(
        String(contentsOf: repository.appendingPathComponent("examples/facts.sql"), encoding: .utf8)
      )
      try database.execute(generatedRows)
      try database.execute("ANALYZE;")
    }
    try FileManager.default.moveItem(atPath: path + ".partial", toPath: path)
    return path
  }

  /// The token of generated customer `n`.
  static func token(_ customer: Int) -> String {
    "\(hex(customer, 8))-0000-4000-8000-\(hex(customer, 12))"
  }

  /// The transaction id of generated purchase `n`.
  static func transaction(_ purchase: Int) -> String { String(3_000_000_000_000_000 + purchase) }

  /// Keys of `count` generated purchases, in a fixed pseudo-random order.
  static func sampleKeys(count: Int) -> [RequestKeys] {
    var state: UInt64 = 0x9E37_79B9_7F4A_7C15
    return (0..<count).map { _ in
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      let purchase = Int((state >> 33) % UInt64(purchases))
      return RequestKeys(
        transactionId: transaction(purchase), originalTransactionId: transaction(purchase),
        appAccountToken: token(purchase % customers),
        productId: "com.example.coins.pack500", bundleId: "com.example.coins")
    }
  }

  /// The example configuration's SQLite queries.
  static func exampleQueries() throws -> [String: String] {
    let data = try Data(contentsOf: repository.appendingPathComponent("examples/reckon.json"))
    let root = try JSONSerialization.jsonObject(with: data) as? [String: Any]
    let sources = root?["factSources"] as? [[String: Any]] ?? []
    return sources.first { $0["type"] as? String == "sqlite" }?["queries"] as? [String: String]
      ?? [:]
  }

  /// Row counts for the report.
  static func rowCounts(_ path: String) -> String {
    guard let database = try? SQLiteDatabase(path: path) else { return "?" }
    return ["purchases", "usage", "customers", "refunds", "support_overrides"].map { table in
      let statement = try? database.prepare("SELECT count(*) FROM \(table)")
      let count = (try? statement?.step()) == true ? statement?.column(0) : nil
      if case .integer(let number)? = count { return "\(table) \(number)" }
      return "\(table) ?"
    }.joined(separator: ", ")
  }

  private static func hex(_ number: Int, _ width: Int) -> String {
    let digits = String(number, radix: 16)
    return String(repeating: "0", count: max(0, width - digits.count)) + digits
  }

  private static let tokenSQL = "printf('%08x-0000-4000-8000-%012x', c, c)"

  private static var generatedRows: String {
    """
    BEGIN;
    WITH RECURSIVE n(c) AS (SELECT 0 UNION ALL SELECT c + 1 FROM n WHERE c + 1 < \(customers))
    INSERT INTO customers SELECT \(tokenSQL), 1700000000000 + c * 1000, c % 10 != 0, (c % 500) * 99, 'USD', c % 50 = 0 FROM n;
    WITH RECURSIVE n(p) AS (SELECT 0 UNION ALL SELECT p + 1 FROM n WHERE p + 1 < \(purchases))
    INSERT INTO purchases SELECT 3000000000000000 + p, printf('%08x-0000-4000-8000-%012x', p % \(customers), p % \(customers)),
      'com.example.coins.pack500', 1790000000000 + p * 1000, 500, p % 40 != 0,
      CASE WHEN p % 40 = 0 THEN 'UNDELIVERED_SERVER_OUTAGE' END, p % 7 = 0 FROM n;
    WITH RECURSIVE n(p) AS (SELECT 0 UNION ALL SELECT p + 1 FROM n WHERE p + 1 < \(purchases))
    INSERT INTO usage SELECT 3000000000000000 + p, (p * 37) % 501, 1790000000000 + p * 1000 + 3600000 FROM n;
    WITH RECURSIVE n(r) AS (SELECT 0 UNION ALL SELECT r + 1 FROM n WHERE r + 1 < 100000)
    INSERT INTO refunds SELECT printf('%08x-0000-4000-8000-%012x', (r * 7) % \(customers), (r * 7) % \(customers)),
      1789000000000 + r * 10000, 499, 'USD' FROM n;
    WITH RECURSIVE n(c) AS (SELECT 0 UNION ALL SELECT c + 25 FROM n WHERE c + 25 < \(customers))
    INSERT INTO support_overrides SELECT \(tokenSQL), CASE c % 3 WHEN 0 THEN 'GRANT_FULL' WHEN 1 THEN 'DECLINE' ELSE 'NO_PREFERENCE' END,
      'generated', 'bench', 1790000000000 FROM n;
    COMMIT;
    """
  }
}
