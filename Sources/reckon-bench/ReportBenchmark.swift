import Foundation
import ReckonSQLite
import ReckonState
import ReckonStateSQLite
import ReckonTools

/// `reckon-bench report [--requests N] [--keep PATH]`: `reckon report outcomes --by week` and `reckon report
/// rules` over a SQLite state of N decided requests (1,000,000) spread over a year, most with
/// an outcome, filled in bulk by SQL rather than through the webhook. Prints the fill time,
/// then for each report the time to read and count the state, and to write text, JSON and HTML.
/// `--keep` leaves the state at PATH (and reads it, unfilled, when it exists), to look at the
/// query with `sqlite3` or time the reports again.
func runReportBenchmark(options: BenchmarkOptions) async throws {
  let count = options.int("requests", 1_000_000)
  let kept = options.string("keep", "")
  let path = kept.isEmpty ? ScratchFiles.database("bench-report") : kept
  // A kept state is filled once and read again by later runs.
  let exists = !kept.isEmpty && FileManager.default.fileExists(atPath: path)
  let fill = try Stopwatch.wallSeconds {
    if !exists { try ReportBenchmark.fill(path, count: count) }
  }
  let bytes = (try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
  print(
    String(
      format: "%d requests filled in %.1f s, state file %.0f MB", count, fill,
      Double(bytes) / 1_048_576))
  let store = try SQLiteStateStore(path: path, rules: .stores, access: .readOnly)
  // As the commands run them: each request counted as its row is read. CPU time of this
  // thread, which does all the work (on a shared machine wall time swings with the other
  // processes); the wall time is printed beside.
  var report: OutcomeReport?
  let began = DispatchTime.now().uptimeNanoseconds
  let counted = try Stopwatch.seconds {
    report = try OutcomeReport(by: ReportPeriod(.week)) {
      try store.forEachDecidedOutcome(since: nil, until: nil, $0)
    }
  }
  let wall = Double(DispatchTime.now().uptimeNanoseconds - began) / 1e9
  var written = 0
  let rendered = Stopwatch.seconds {
    written = [report?.text(), report?.json(), report?.html()].compactMap { $0?.utf8.count }
      .reduce(0, +)
  }
  print(
    String(
      format:
        "report outcomes --by week: %.2f s CPU (read and count %.2f s, %.2f s wall; text+json+html %.2f s), %d KB, %d weeks",
      counted + rendered, counted, wall, rendered, written / 1_024, report?.periods.count ?? 0))
  var read = 0
  let alone = try Stopwatch.seconds {
    try store.forEachDecidedOutcome(since: nil, until: nil) { _ in read += 1 }
  }
  print(String(format: "  of which reading the %d rows alone: %.2f s CPU", read, alone))
  let ruled = try Stopwatch.seconds {
    let rules = try RuleReport(
      [
        RuleReport.Source(
          name: "targeted", version: "5", sha256: ReportBenchmark.sha256, path: "bench",
          rules: ReportBenchmark.rules + ["never decides"])
      ], since: nil, until: nil
    ) { try store.forEachDecidedOutcome(since: nil, until: nil, $0) }
    _ = rules.text()
  }
  print(String(format: "report rules: %.2f s CPU (read, count and text)", ruled))
}

enum ReportBenchmark {
  static let rules = [
    "we failed to deliver", "accidental, untouched", "partly used consumable", "heavy use",
    "serial refunder",
  ]
  static let sha256 = String(repeating: "5", count: 64)

  /// A state at the newest schema holding `count` requests, each decided (one in seven a skip,
  /// the others sent), 80% with an outcome: declines, full and prorated refunds, a few reversed.
  static func fill(_ path: String, count: Int) throws {
    // The store makes the newest schema; the rows go in beside it, in one transaction.
    let store = try SQLiteStateStore(path: path, rules: .stores)
    let database = try SQLiteDatabase(
      path: path, options: [.readWrite, .noMutex], busyTimeoutMs: 10_000)
    try database.execute("PRAGMA synchronous = OFF;")
    try database.execute(rows(count))
    withExtendedLifetime(store) {}
  }

  private static func rows(_ count: Int) -> String {
    let start = 1_765_000_000.0
    let step = 365 * 86_400 / Double(count)
    let rule =
      "CASE n % 6 "
      + rules.enumerated().map { "WHEN \($0) THEN '\($1)'" }.joined(
        separator: " ") + " ELSE 'otherwise' END"
    let body =
      "'{\"customerConsented\":true,\"deliveryStatus\":\"DELIVERED\",\"refundPreference\":\"' || CASE n % 3 WHEN 0 THEN 'DECLINE' WHEN 1 THEN 'GRANT_PRORATED' ELSE 'GRANT_FULL' END || '\"}'"
    return """
      BEGIN;
      WITH RECURSIVE s(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM s WHERE n < \(count))
      INSERT INTO requests (id, notification_uuid, notification_type, transaction_id, bundle_id,
        environment, received_at, deadline, raw_notification, price, currency, reason,
        product_type, summarized)
      SELECT n, 'bench-' || n, 'CONSUMPTION_REQUEST', 'T' || n, 'com.example.coins',
        'Production', \(start) + n * \(step), \(start) + n * \(step) + 43200, x'7b7d',
        (n % 5 + 1) * 990, CASE n % 4 WHEN 0 THEN 'EUR' ELSE 'USD' END,
        CASE n % 3 WHEN 0 THEN 'UNINTENDED_PURCHASE' WHEN 1 THEN 'OTHER' ELSE 'LEGAL' END,
        CASE n % 2 WHEN 0 THEN 'CONSUMABLE' ELSE 'AUTO_RENEWABLE' END, 1
      FROM s;
      INSERT INTO decisions (id, request_id, decided_at, policy_name, policy_version,
        policy_sha256, action, rule, body, facts_json)
      SELECT id, id, received_at + 1, 'targeted', '5', '\(sha256)',
        CASE id % 7 WHEN 0 THEN 'skip' ELSE 'respond' END, \(rule.replacingOccurrences(of: "n %", with: "id %")),
        CAST(\(body.replacingOccurrences(of: "n %", with: "id %")) AS BLOB), '[]'
      FROM requests;
      INSERT INTO outbox (decision_id, request_id, bundle_id, environment, transaction_id, body,
        state, state_at, deadline, release_at, created_at, updated_at)
      SELECT d.id, d.request_id, 'com.example.coins', 'Production', 'T' || d.id, d.body, 'sent',
        d.decided_at, d.decided_at + 43200, d.decided_at, d.decided_at, d.decided_at
      FROM decisions d WHERE d.action = 'respond';
      INSERT INTO outcomes (notification_uuid, request_id, type, transaction_id, occurred_at,
        revocation_type, revocation_percentage, bundle_id, environment)
      SELECT 'outcome-' || id, id, CASE WHEN id % 10 < 5 THEN 'REFUND_DECLINED' ELSE 'REFUND' END,
        'T' || id, received_at + 86400,
        CASE WHEN id % 10 >= 5 THEN CASE id % 3 WHEN 0 THEN 'REFUND_PRORATED' ELSE 'REFUND_FULL' END END,
        CASE WHEN id % 10 >= 5 AND id % 3 = 0 THEN (id % 100) * 1000 END,
        'com.example.coins', 'Production'
      FROM requests WHERE id % 10 < 8;
      INSERT INTO outcomes (notification_uuid, request_id, type, transaction_id, occurred_at,
        bundle_id, environment)
      SELECT 'reversed-' || id, id, 'REFUND_REVERSED', 'T' || id, received_at + 172800,
        'com.example.coins', 'Production'
      FROM requests WHERE id % 10 = 7 AND id % 9 = 0;
      COMMIT;
      """
  }
}
