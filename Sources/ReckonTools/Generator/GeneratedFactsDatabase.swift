import Foundation
import ReckonEngine
import ReckonFacts

/// Writes the generated purchases, usage, customers, refunds and support overrides as the
/// example app's database (the schema of examples/facts.sql), for the SQLite fact source.
enum GeneratedFactsDatabase {
  static let schema = """
    CREATE TABLE customers (account_token TEXT PRIMARY KEY, created_at INTEGER NOT NULL,
      consented_to_share INTEGER, lifetime_spent_cents INTEGER NOT NULL DEFAULT 0,
      currency TEXT NOT NULL DEFAULT 'USD', vip INTEGER NOT NULL DEFAULT 0) WITHOUT ROWID;
    CREATE TABLE purchases (transaction_id TEXT PRIMARY KEY,
      account_token TEXT NOT NULL REFERENCES customers (account_token), product_id TEXT NOT NULL,
      purchased_at INTEGER NOT NULL, units_granted INTEGER NOT NULL, delivered INTEGER NOT NULL,
      delivery_problem TEXT, sample_offered INTEGER NOT NULL DEFAULT 0) WITHOUT ROWID;
    CREATE INDEX purchases_by_account ON purchases (account_token);
    CREATE TABLE usage (transaction_id TEXT PRIMARY KEY REFERENCES purchases (transaction_id),
      units_used INTEGER NOT NULL, last_used_at INTEGER) WITHOUT ROWID;
    CREATE TABLE refunds (account_token TEXT NOT NULL REFERENCES customers (account_token),
      refunded_at INTEGER NOT NULL, amount_cents INTEGER NOT NULL, currency TEXT NOT NULL DEFAULT 'USD');
    CREATE INDEX refunds_by_account ON refunds (account_token, refunded_at, amount_cents);
    CREATE TABLE support_overrides (account_token TEXT PRIMARY KEY REFERENCES customers (account_token),
      preference TEXT NOT NULL, note TEXT, set_by TEXT NOT NULL, set_at INTEGER NOT NULL) WITHOUT ROWID;
    """

  /// Writes every row of `generator` to a new database at `path`.
  static func write(_ generator: PastRequestGenerator, to path: String) throws {
    let database = try SQLiteFactsFileWriter(path: path, schema: schema)
    try customers(generator, database)
    try purchases(generator, database)
    try database.finish()
  }

  private static func customers(
    _ generator: PastRequestGenerator, _ database: SQLiteFactsFileWriter
  )
    throws
  {
    let customer = try database.insert("INSERT INTO customers VALUES (?, ?, ?, ?, ?, ?)")
    let refund = try database.insert("INSERT INTO refunds VALUES (?, ?, ?, ?)")
    let override = try database.insert(
      "INSERT INTO support_overrides VALUES (?, ?, 'generated', 'generator', ?)")
    let start = Int64(generator.start.timeIntervalSince1970 * 1000)
    for index in 0..<generator.customerCount {
      let made = generator.customer(index)
      try customer.run(
        [
          .text(made.token), .integer(made.createdAt),
          made.consented.map { .integer(Int64($0)) } ?? .null,
          .integer(Int64(made.lifetimeSpentCents)), .text("USD"), .integer(made.vip ? 1 : 0),
        ])
      for number in 0..<made.pastRefunds {
        let at =
          start + Int64(generator.days) * 86_400_000 * Int64(number) / 3 - Int64(
            (index * 7 + number * 13) % 120) * 86_400_000
        try refund.run(
          [
            .text(made.token), .integer(at), .integer(Int64(99 + (index + number) % 900)),
            .text("USD"),
          ])
      }
      if let preference = made.override {
        try override.run([.text(made.token), .text(preference), .integer(start)])
      }
    }
  }

  private static func purchases(
    _ generator: PastRequestGenerator, _ database: SQLiteFactsFileWriter
  )
    throws
  {
    let purchase = try database.insert("INSERT INTO purchases VALUES (?, ?, ?, ?, ?, ?, ?, ?)")
    let usage = try database.insert("INSERT INTO usage VALUES (?, ?, ?)")
    var tokens: [Int: String] = [:]
    for index in 0..<generator.count {
      let request = generator.request(index)
      let token = tokens[request.customer] ?? generator.customer(request.customer).token
      tokens[request.customer] = token
      let units = request.units
      try purchase.run(
        [
          .text(request.transactionId), .text(token),
          .text(PastRequestGenerator.products[request.product].id),
          .integer(request.purchasedAt), .integer(Int64(units.granted)),
          .integer(request.delivered ? 1 : 0),
          request.delivered ? .null : .text(GeneratedRequest.problems[request.problem]),
          .integer(request.sampleOffered ? 1 : 0),
        ])
      let lastUsed: SQLiteFactsFileWriter.Value =
        units.used > 0 ? .integer(request.purchasedAt + request.lastUsedAfter) : .null
      try usage.run([.text(request.transactionId), .integer(Int64(units.used)), lastUsed])
    }
  }
}
