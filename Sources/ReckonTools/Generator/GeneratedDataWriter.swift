import Foundation
import ReckonEngine

/// Writes a generator's data to a folder: `requests.jsonl` (one decoded notification a line),
/// `facts.sqlite` (the example app's database), and `reckon.json` configuring the SQLite source
/// with the example queries and their bulk query, so `reckon dry-run` can run on it at once.
public enum GeneratedDataWriter {
  /// The files written.
  public struct Files: Sendable {
    /// The requests, one JSON line each.
    public let requests: String
    /// The facts database.
    public let facts: String
    /// The configuration.
    public let configuration: String
  }

  /// Writes everything into `folder` (created if needed); `policyPath` goes into the config's app.
  @discardableResult
  public static func write(_ generator: PastRequestGenerator, to folder: String, policyPath: String)
    throws -> Files
  {
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    let files = Files(
      requests: folder + "/requests.jsonl", facts: folder + "/facts.sqlite",
      configuration: folder + "/reckon.json")
    try writeRequests(generator, to: files.requests)
    try GeneratedFactsDatabase.write(generator, to: files.facts)
    try Data(configuration(generator, policyPath: policyPath).utf8).write(
      to: URL(fileURLWithPath: files.configuration))
    return files
  }

  /// Writes the requests file alone.
  public static func writeRequests(_ generator: PastRequestGenerator, to path: String) throws {
    _ = FileManager.default.createFile(atPath: path, contents: nil)
    guard let handle = FileHandle(forWritingAtPath: path) else {
      throw DryRunError.unreadable(path: path, reason: "cannot be written")
    }
    defer { try? handle.close() }
    var tokens: [Int: String] = [:]
    var chunk = ""
    for index in 0..<generator.count {
      let request = generator.request(index)
      let token = tokens[request.customer] ?? generator.customer(request.customer).token
      tokens[request.customer] = token
      chunk += request.jsonLine(generator, token: token) + "\n"
      if chunk.utf8.count > 1 << 20 {
        handle.write(Data(chunk.utf8))
        chunk = ""
      }
    }
    handle.write(Data(chunk.utf8))
  }

  /// The example queries (as in examples/reckon.json) and the one bulk query equal to them.
  public static let queries: [String: String] = [
    "purchase":
      "SELECT CASE WHEN p.delivered = 1 THEN 'DELIVERED' ELSE coalesce(p.delivery_problem, 'UNDELIVERED_OTHER') END AS \"delivery.status\", p.sample_offered AS \"product.sample_offered\", round(min(100.0, 100.0 * coalesce(u.units_used, 0) / p.units_granted), 1) AS \"usage.consumed\", u.units_used AS \"usage.consumed_units\", u.last_used_at AS \"usage.last_used\" FROM purchases p LEFT JOIN usage u ON u.transaction_id = p.transaction_id WHERE p.transaction_id = :transaction_id",
    "customer":
      "SELECT c.consented_to_share AS \"customer.consented\", ((SELECT p.purchased_at FROM purchases p WHERE p.transaction_id = :transaction_id) - c.created_at) / 1000 AS \"customer.account_age\", printf('%.2f %s', c.lifetime_spent_cents / 100.0, c.currency) AS \"customer.lifetime_spent\", printf('%.2f %s', coalesce((SELECT sum(r.amount_cents) FROM refunds r WHERE r.account_token = c.account_token), 0) / 100.0, c.currency) AS \"customer.lifetime_refunded\", (SELECT count(*) FROM refunds r WHERE r.account_token = c.account_token AND r.refunded_at > (SELECT p.purchased_at FROM purchases p WHERE p.transaction_id = :transaction_id) - 90 * 86400000) AS \"customer.refunds_last_90_days\", c.vip AS \"custom.vip\" FROM customers c WHERE c.account_token = (SELECT p.account_token FROM purchases p WHERE p.transaction_id = :transaction_id)",
    "support":
      "SELECT preference AS \"customer.override\" FROM support_overrides WHERE account_token = (SELECT p.account_token FROM purchases p WHERE p.transaction_id = :transaction_id)",
  ]

  /// Every purchase's facts in transaction order, joined through the purchase's account.
  public static let bulkQuery =
    "SELECT p.transaction_id AS transaction_id, CASE WHEN p.delivered = 1 THEN 'DELIVERED' ELSE coalesce(p.delivery_problem, 'UNDELIVERED_OTHER') END AS \"delivery.status\", p.sample_offered AS \"product.sample_offered\", round(min(100.0, 100.0 * coalesce(u.units_used, 0) / p.units_granted), 1) AS \"usage.consumed\", u.units_used AS \"usage.consumed_units\", u.last_used_at AS \"usage.last_used\", c.consented_to_share AS \"customer.consented\", CASE WHEN c.account_token IS NOT NULL THEN (p.purchased_at - c.created_at) / 1000 END AS \"customer.account_age\", CASE WHEN c.account_token IS NOT NULL THEN printf('%.2f %s', c.lifetime_spent_cents / 100.0, c.currency) END AS \"customer.lifetime_spent\", CASE WHEN c.account_token IS NOT NULL THEN printf('%.2f %s', coalesce((SELECT sum(r.amount_cents) FROM refunds r WHERE r.account_token = c.account_token), 0) / 100.0, c.currency) END AS \"customer.lifetime_refunded\", CASE WHEN c.account_token IS NOT NULL THEN (SELECT count(*) FROM refunds r WHERE r.account_token = c.account_token AND r.refunded_at > p.purchased_at - 90 * 86400000) END AS \"customer.refunds_last_90_days\", c.vip AS \"custom.vip\", s.preference AS \"customer.override\" FROM purchases p LEFT JOIN usage u ON u.transaction_id = p.transaction_id LEFT JOIN customers c ON c.account_token = p.account_token LEFT JOIN support_overrides s ON s.account_token = p.account_token ORDER BY p.transaction_id"

  static func configuration(_ generator: PastRequestGenerator, policyPath: String) -> String {
    let queries = queries.sorted { $0.key < $1.key }.map {
      "        \(DryRunRows.quote($0.key)): \(DryRunRows.quote($0.value))"
    }
    return """
      {
        "apps": [
          { "bundleId": "\(generator.bundleId)", "appAppleId": \(generator.appAppleId), "environment": "Production", "policy": \(DryRunRows.quote(policyPath)) }
        ],
        "factSources": [
          {
            "name": "app-db", "type": "sqlite", "path": "facts.sqlite",
            "customFacts": { "custom.vip": "boolean" },
            "queries": {
      \(queries.joined(separator: ",\n"))
            },
            "bulkQuery": \(DryRunRows.quote(bulkQuery))
          }
        ],
        "state": { "path": "reckon-state.sqlite" }
      }

      """
  }
}
