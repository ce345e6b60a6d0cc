import ReckonState

/// The state database's schema as forward-only migrations. Version N is the first N entries of
/// `migrations`; each runs once, in its own transaction, and is recorded in `schema_migrations`.
/// Never edit a shipped migration: append a new one.
enum StateSchema {
  static let migrations: [String] = [
    // 1: requests, decisions, outbox, attempts, outcomes, app pauses.
    """
    CREATE TABLE requests (
      id INTEGER PRIMARY KEY,
      notification_uuid TEXT NOT NULL UNIQUE,
      notification_type TEXT NOT NULL,
      transaction_id TEXT,
      original_transaction_id TEXT,
      app_account_token TEXT,
      bundle_id TEXT NOT NULL,
      environment TEXT NOT NULL,
      received_at REAL NOT NULL,
      deadline REAL NOT NULL,
      raw_notification BLOB NOT NULL
    );
    CREATE INDEX requests_by_transaction ON requests(transaction_id, received_at);
    CREATE TABLE decisions (
      id INTEGER PRIMARY KEY,
      request_id INTEGER NOT NULL REFERENCES requests(id),
      decided_at REAL NOT NULL,
      policy_name TEXT NOT NULL,
      policy_version TEXT,
      policy_sha256 TEXT NOT NULL,
      action TEXT NOT NULL,
      rule TEXT NOT NULL,
      reason TEXT,
      body BLOB,
      facts_json TEXT NOT NULL,
      explanation_json TEXT
    );
    CREATE INDEX decisions_by_request ON decisions(request_id);
    CREATE TABLE outbox (
      id INTEGER PRIMARY KEY,
      decision_id INTEGER NOT NULL UNIQUE REFERENCES decisions(id),
      request_id INTEGER NOT NULL REFERENCES requests(id),
      bundle_id TEXT NOT NULL,
      environment TEXT NOT NULL,
      transaction_id TEXT NOT NULL,
      product_type TEXT,
      ownership_type TEXT,
      body BLOB NOT NULL,
      state TEXT NOT NULL,
      state_at REAL NOT NULL,
      state_reason TEXT,
      deadline REAL NOT NULL,
      release_at REAL NOT NULL,
      attempts INTEGER NOT NULL DEFAULT 0,
      interrupted_sends INTEGER NOT NULL DEFAULT 0,
      last_status INTEGER,
      last_error TEXT,
      created_at REAL NOT NULL,
      updated_at REAL NOT NULL
    );
    CREATE INDEX outbox_by_state ON outbox(state, state_at);
    CREATE TABLE attempts (
      id INTEGER PRIMARY KEY,
      entry_id INTEGER NOT NULL REFERENCES outbox(id),
      started_at REAL NOT NULL,
      finished_at REAL,
      http_status INTEGER,
      error_code INTEGER,
      error_message TEXT,
      result TEXT NOT NULL
    );
    CREATE INDEX attempts_by_entry ON attempts(entry_id);
    CREATE TABLE outcomes (
      id INTEGER PRIMARY KEY,
      notification_uuid TEXT NOT NULL UNIQUE,
      request_id INTEGER REFERENCES requests(id),
      type TEXT NOT NULL,
      transaction_id TEXT NOT NULL,
      original_transaction_id TEXT,
      app_account_token TEXT,
      occurred_at REAL NOT NULL
    );
    CREATE INDEX outcomes_by_token ON outcomes(app_account_token, type);
    CREATE INDEX outcomes_by_original ON outcomes(original_transaction_id, type);
    CREATE TABLE app_pauses (
      bundle_id TEXT NOT NULL,
      environment TEXT NOT NULL,
      paused_until REAL NOT NULL,
      reason TEXT NOT NULL,
      PRIMARY KEY (bundle_id, environment)
    );
    """,
    // 2: how Apple refunded (revocationType, revocationPercentage), for the outcomes report.
    """
    ALTER TABLE outcomes ADD COLUMN revocation_type TEXT;
    ALTER TABLE outcomes ADD COLUMN revocation_percentage INTEGER;
    """,
    // 3: a revision per outbox entry, so a write based on a stale read (an operator's `queue`
    // command racing the sender in another process) is refused instead of overwriting.
    """
    ALTER TABLE outbox ADD COLUMN revision INTEGER NOT NULL DEFAULT 0;
    """,
    // 4: a CONSUMPTION_REQUEST that repeats one still open for its transaction (Apple sent the
    // same refund request again under a new UUID) points at it; it is never decided or counted
    // as a request of its own. Requests imported from Apple's history are kept for dry-runs and
    // reports and never answered: another system may have answered them.
    """
    ALTER TABLE requests ADD COLUMN repeat_of INTEGER REFERENCES requests(id);
    ALTER TABLE requests ADD COLUMN imported INTEGER NOT NULL DEFAULT 0;
    """,
    // 5: the outcomes report looks up each request's outcomes, and dry-runs and reports select
    // requests by when they were received; without these, both scanned whole tables per
    // request (20,000 requests took minutes).
    """
    CREATE INDEX outcomes_by_request ON outcomes(request_id, occurred_at, id);
    CREATE INDEX requests_by_received ON requests(received_at);
    """,
    // 6: each outcome's app (bundle id and environment), so `history.earlier_refunds` counts
    // only refunds of the request's own app and environment, as `history.earlier_requests`
    // counts requests: a Sandbox refund is not a Production one. Earlier rows take the app of
    // the outcome's own notification where the webhook recorded it in `requests`, else of the
    // request it attached to. A row with neither (an outcome imported from Apple's history for
    // a transaction with no request here) keeps NULL in both: its app is unknown, and it counts
    // for every app and environment, as every outcome did before.
    // And `reckon queue list`'s order (unfinished entries first, then by deadline) as an index,
    // so a listing reads its first `--limit` entries in order instead of sorting the whole
    // outbox; the states must be `SQLiteStateStore.unfinishedStates` as the listing writes them.
    """
    ALTER TABLE outcomes ADD COLUMN bundle_id TEXT;
    ALTER TABLE outcomes ADD COLUMN environment TEXT;
    UPDATE outcomes SET (bundle_id, environment) = (
      SELECT r.bundle_id, r.environment FROM requests r
      WHERE r.notification_uuid = outcomes.notification_uuid);
    UPDATE outcomes SET (bundle_id, environment) = (
      SELECT r.bundle_id, r.environment FROM requests r WHERE r.id = outcomes.request_id)
    WHERE environment IS NULL;
    CREATE INDEX outbox_by_listing
      ON outbox(state NOT IN ('held', 'pending', 'sending', 'failed'), deadline);
    """,
    // 7: how long Apple rate-limited each app (a 429's Retry-After), so a restarted sender or
    // the next `reckon send --once` keeps to it instead of sending into the limit.
    """
    CREATE TABLE app_throttles (
      bundle_id TEXT NOT NULL,
      environment TEXT NOT NULL,
      held_until REAL NOT NULL,
      PRIMARY KEY (bundle_id, environment)
    );
    """,
    // 8: the rows that point at a request, found by index: its repeats (a late verdict reopens
    // them, and SQLite checks them when a request is deleted) and its outbox entries (checked
    // likewise). Without them each REFUND read the whole requests table, and `reckon prune`
    // read both tables whole for every request it removed. Only repeats are indexed.
    """
    CREATE INDEX requests_by_repeat ON requests(repeat_of) WHERE repeat_of IS NOT NULL;
    CREATE INDEX outbox_by_request ON outbox(request_id);
    """,
    // 9: whether the entry's transaction is an Advanced Commerce one, so the checks before each
    // send and after an operator's edit hold the body to Apple's rule for those as the decision
    // did. Earlier entries are not: the decision refuses to queue a body for one.
    """
    ALTER TABLE outbox ADD COLUMN advanced_commerce INTEGER NOT NULL DEFAULT 0;
    """,
    // 10: an undecided request's retries: when it may next be tried, how often it was, and why
    // the last try failed, so requests that keep failing wait their turn instead of taking
    // every pass; and when one whose deadline passed undecided was reported, once.
    """
    ALTER TABLE requests ADD COLUMN retry_at REAL;
    ALTER TABLE requests ADD COLUMN retries INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE requests ADD COLUMN retry_reason TEXT;
    ALTER TABLE requests ADD COLUMN lapsed_at REAL;
    """,
    // 11: each distinct certificate of the notifications' JWS chains once, which a packed
    // notification (`raw_format` 1, `PackedNotification`) refers to by id instead of carrying
    // Apple's chain three times over, base64 in base64url; and a decision's facts and
    // explanation deflated (`json_format` 1, `DecisionJSON`). Earlier rows keep format 0 and
    // are read as they are. A request
    // with a real signed notification took 29.3 KB of the file, 4.1 KB since
    // (`reckon-bench state-size`). Certificates are shared by every request and few (Apple's
    // three, a new leaf now and then), so `reckon prune` leaves them.
    """
    CREATE TABLE certificates (id INTEGER PRIMARY KEY, der BLOB NOT NULL UNIQUE);
    ALTER TABLE requests ADD COLUMN raw_format INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE decisions ADD COLUMN json_format INTEGER NOT NULL DEFAULT 0;
    """,
    // 12: the last policy that went live for each app (bundle id and environment), with its
    // exact text, its hash and where it was read from, so a restarted `reckon serve` whose
    // policy file no longer checks can start with the policy it last decided by instead of with
    // none. One row per app, replaced whenever another policy goes live there. It is not
    // per-request data, so `reckon prune` leaves it; a read-only open of an older file finds no
    // policy kept (see `SQLiteStateStore.lastLivePolicy`).
    """
    CREATE TABLE live_policies (
      bundle_id TEXT NOT NULL,
      environment TEXT NOT NULL,
      source TEXT NOT NULL,
      text TEXT NOT NULL,
      text_sha256 TEXT NOT NULL,
      live_at REAL NOT NULL,
      PRIMARY KEY (bundle_id, environment)
    );
    """,
    // 13: what the reports read of each request (its price and currency, the customer's
    // reason, the product type), kept as it is recorded, so a report over a million requests
    // reads columns instead of decoding each signed notification. `summarized` says the row
    // has them; earlier rows keep 0 and the reports decode their notification, as before.
    """
    ALTER TABLE requests ADD COLUMN price INTEGER;
    ALTER TABLE requests ADD COLUMN currency TEXT;
    ALTER TABLE requests ADD COLUMN reason TEXT;
    ALTER TABLE requests ADD COLUMN product_type TEXT;
    ALTER TABLE requests ADD COLUMN summarized INTEGER NOT NULL DEFAULT 0;
    """,
  ]

  /// The oldest version a read-only open accepts: the migrations after it add indexes, and
  /// outcomes' app columns that a read of an older file derives as migration 6 backfills them
  /// (see `SQLiteStateStore.outcomesWithApps`), so dry-runs and reports read an older file as it is
  /// (slower) rather than refuse it. Columns and tables added later read as their defaults would
  /// (format 0, no live policy kept).
  static let oldestReadable = 4

  /// The first version with the index of outcomes by request, time and id.
  static let outcomesByRequest = 5

  /// The first version whose outcomes carry their app (`bundle_id`, `environment`).
  static let outcomeApps = 6

  /// The first version whose outbox entries say whether their transaction is an Advanced
  /// Commerce one.
  static let outboxAdvancedCommerce = 9

  /// The first version that packs notifications and deflates decisions' JSON (`raw_format`,
  /// `json_format`).
  static let packedRows = 11

  /// The first version that keeps each app's last live policy (`live_policies`).
  static let livePolicies = 12

  /// The first version whose requests carry what the reports read (`RequestSummary`).
  static let requestSummaries = 13

  /// The schema version of a Reckon state database, read without writing; a file that is not
  /// SQLite or has no `schema_migrations` table is not a Reckon state database.
  /// Whether the file holds nothing at all (no table, view, index or trigger, and no
  /// application id or user version another program set): a new file, which Reckon may make
  /// its own.
  static func isEmpty(_ connection: SQLiteConnection) throws(StateError) -> Bool {
    do throws(StateError) {
      let objects = try connection.query("SELECT 1 FROM sqlite_master LIMIT 1")
      let application = try connection.query("PRAGMA application_id").first?.int(0)
      let version = try connection.query("PRAGMA user_version").first?.int(0)
      return objects.isEmpty && (application ?? 0) == 0 && (version ?? 0) == 0
    } catch {
      throw error.ifNotADatabase(path: connection.path)
    }
  }

  static func version(_ connection: SQLiteConnection) throws(StateError) -> Int {
    let hasTable: Bool
    do {
      hasTable = try !connection.query(
        "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'"
      ).isEmpty
    } catch {
      throw error.ifNotADatabase(path: connection.path)
    }
    guard hasTable else { throw .notAStateDatabase(path: connection.path) }
    let version = Int(
      try connection.query("SELECT COALESCE(MAX(version), 0) FROM schema_migrations").first?.int(0)
        ?? 0)
    guard version <= migrations.count else {
      throw .newerSchema(path: connection.path, found: version, known: migrations.count)
    }
    return version
  }

  /// Brings the database to the newest version (to `target` when given: a file as an older
  /// Reckon left it, for tests), refusing one written by a newer Reckon.
  static func migrate(
    _ connection: SQLiteConnection, now: Double, to target: Int = StateSchema.migrations.count
  ) throws(StateError) {
    try connection.execute(
      "CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, applied_at REAL NOT NULL)"
    )
    let current = Int(
      try connection.query("SELECT COALESCE(MAX(version), 0) FROM schema_migrations").first?.int(0)
        ?? 0)
    guard current <= migrations.count else {
      throw .newerSchema(path: connection.path, found: current, known: migrations.count)
    }
    try apply(connection, after: current, upTo: target, now: now)
  }

  /// Applies each migration after version `current` up to `target` that the file does not
  /// have yet. `current` may be stale: another process opening the same older file at the same
  /// moment (serve starting while cron runs send) may have applied some meanwhile.
  static func apply(
    _ connection: SQLiteConnection, after current: Int, upTo target: Int, now: Double
  ) throws(StateError) {
    for version in (current + 1)..<(max(target, current) + 1) {
      try connection.transaction { () throws(StateError) in
        // Read again under the write lock, which keeps it from changing until the commit.
        let applied = try connection.query(
          "SELECT 1 FROM schema_migrations WHERE version >= ?", [.integer(Int64(version))])
        guard applied.isEmpty else { return }
        try connection.execute(migrations[version - 1])
        try connection.query(
          "INSERT INTO schema_migrations (version, applied_at) VALUES (?, ?)",
          [.integer(Int64(version)), .real(now)])
      }
    }
  }
}
