import CSQLite
import Foundation
import ReckonPolicy
import ReckonSQLite
import ReckonSupport
import Synchronization

/// Facts from the app's own SQLite database, through SQL queries whose result columns are named
/// after facts and whose named parameters are the request's keys (`:transaction_id`, ...).
///
/// The file is opened read-only. Every query is prepared and checked against the schema when the
/// source is created, so a typo fails at start-up. Prepared statements are reused: each
/// connection holds its own, and concurrent lookups each take a connection from a small pool
/// (one per thread that needs one at the same time), so no connection is ever shared.
///
/// Asked through `facts(for:)`, a lookup runs on a thread of the source's own, off the Swift
/// concurrency pool, a few at a time: a file locked by the app's writer makes a lookup wait up to
/// the busy timeout, and on the pool that wait would hold one of its few threads from the
/// webhook and the sender. `lookup` runs on the calling thread, for callers that own theirs.
///
/// The source follows the path, not the file it first opened: a database moved into its place
/// (a nightly export replacing the last) is read from within a second, and while no file is
/// there every lookup fails, as a JSON source's does, rather than answer from a removed one.
public final class SQLiteFactSource: FactSource, @unchecked Sendable {
  /// What the configuration says about a SQLite source.
  public struct Settings: Hashable, Sendable {
    /// The database file.
    public var path: String
    /// The queries by name; each SELECTs at most one row of facts.
    public var queries: [String: String]
    /// How long a query waits for another connection's lock before failing.
    public var busyTimeoutMs: Int32
    /// How long a lookup's queries may run in all before SQLite is told to stop them (the
    /// source's `timeoutMs`); nil for no limit. The caller stops waiting at its own deadline,
    /// but without this a slow query would go on holding its thread (often one of the Swift
    /// pool's few) and burning CPU for a request already given up on.
    public var lookupTimeoutMs: Int32?

    /// Creates settings.
    public init(
      path: String, queries: [String: String], busyTimeoutMs: Int32 = 1_000,
      lookupTimeoutMs: Int32? = nil
    ) {
      self.path = path
      self.queries = queries
      self.busyTimeoutMs = busyTimeoutMs
      self.lookupTimeoutMs = lookupTimeoutMs
    }
  }

  /// The provenance name of its facts.
  public let name: String
  /// The settings it was created with.
  public let settings: Settings
  /// Every fact some query's columns supply.
  public let suppliableFacts: Set<String>?
  /// The schema its queries are checked by, with the other stores it serves.
  public let schema: FactSchema
  private let lock = NSLock()
  private var idle: [Connection]
  private let lookups: BlockingWorkQueue
  private let offPool = Mutex(0)
  /// The file the pooled connections read (its identity), nil while the path names none.
  private var fileIdentity: UInt64?
  /// When a lookup next looks which file the path names (uptime nanoseconds).
  private var nextFileCheck: UInt64

  /// How many lookups through `facts(for:)` run at once; more wait their turn.
  static let concurrentLookups = 4

  /// How often, at most, a lookup looks which file the path names (nanoseconds): a `stat` a
  /// second, not one per lookup of a dry-run's hundred thousand.
  private let fileCheckInterval: UInt64

  /// Opens the database, prepares every query and checks its parameters and columns.
  public convenience init(name: String, settings: Settings, schema: FactSchema)
    throws(SQLiteFactSourceError)
  {
    try self.init(name: name, settings: settings, schema: schema, fileCheckEvery: .seconds(1))
  }

  /// A source that looks which file the path names every `fileCheckEvery` at most.
  init(name: String, settings: Settings, schema: FactSchema, fileCheckEvery: Duration)
    throws(SQLiteFactSourceError)
  {
    guard !settings.queries.isEmpty else { throw .noQueries }
    let (seconds, attoseconds) = fileCheckEvery.components
    fileCheckInterval =
      UInt64(max(0, seconds)) * 1_000_000_000 + UInt64(max(0, attoseconds / 1_000_000_000))
    self.name = name
    self.settings = settings
    self.schema = schema
    let first = try Connection(settings: settings, schema: schema)
    var owners: [String: String] = [:]
    for query in first.queries {
      for fact in query.columns.map(\.fact.name) + query.passedOver {
        if let other = owners[fact] {
          throw .duplicateFact(column: fact, queries: [other, query.name])
        }
        owners[fact] = query.name
      }
    }
    self.suppliableFacts = Set(first.queries.flatMap { $0.columns.map(\.fact.name) })
    self.idle = [first]
    self.fileIdentity = first.fileIdentity
    self.nextFileCheck = DispatchTime.now().uptimeNanoseconds + fileCheckInterval
    lookups = BlockingWorkQueue(
      label: "reckon.fact-source.\(name)", width: SQLiteFactSource.concurrentLookups)
  }

  /// The facts the queries find for `keys`: on the calling thread when the file is not locked
  /// (always, in WAL mode), else off the concurrency pool, waiting up to the busy timeout there.
  public func facts(for keys: RequestKeys) async throws -> [String: Value] {
    // Handing every lookup to another thread and back cost about 40 µs of wake-ups, twice the
    // lookup itself; only a lock can make one wait.
    if let facts = try lookupIfUnlocked(keys) { return facts }
    offPool.withLock { $0 += 1 }
    return try await lookups.run { [self] in try lookup(keys) }
  }

  /// How many lookups through `facts(for:)` are running now (for tests).
  var runningLookups: Int { lookups.runningCount }

  /// How many lookups through `facts(for:)` found the file locked and went off the pool.
  var offPoolLookups: Int { offPool.withLock { $0 } }

  /// The facts for `keys` on the calling thread without waiting for a lock; nil when another
  /// connection holds one now, or when no connection is free: opening one reads the schema,
  /// which waits out a lock.
  func lookupIfUnlocked(_ keys: RequestKeys) throws(SQLiteFactSourceError) -> [String: Value]? {
    try followFile()
    guard let connection = lock.withLock({ idle.popLast() }) else { return nil }
    defer { checkIn(connection) }
    connection.waitsForLocks(false)
    defer { connection.waitsForLocks(true) }
    var lockedOut = false
    do { return try connection.read(keys, lockedOut: &lockedOut) } catch {
      if lockedOut { return nil }
      throw error
    }
  }

  /// The facts the queries find for `keys`, synchronously on the calling thread.
  public func lookup(_ keys: RequestKeys) throws(SQLiteFactSourceError) -> [String: Value] {
    try followFile()
    let connection = try checkOut()
    defer { checkIn(connection) }
    var lockedOut = false
    return try connection.read(keys, lockedOut: &lockedOut)
  }

  private func checkOut() throws(SQLiteFactSourceError) -> Connection {
    lock.lock()
    let connection = idle.popLast()
    lock.unlock()
    if let connection { return connection }
    return try Connection(settings: settings, schema: schema)
  }

  private func checkIn(_ connection: Connection) {
    lock.lock()
    // One opened on a file since replaced is closed rather than kept.
    if connection.fileIdentity == fileIdentity { idle.append(connection) }
    lock.unlock()
  }

  /// Looks, once a second at most, which file the path names: when another file has taken
  /// its place the pooled connections are closed, so the next lookups open the new one; while
  /// there is none, each lookup fails.
  private func followFile() throws(SQLiteFactSourceError) {
    let now = DispatchTime.now().uptimeNanoseconds
    // One lock between checks: a lookup takes it again for a connection.
    let (due, seen) = lock.withLock { () -> (Bool, UInt64?) in
      guard now >= nextFileCheck else { return (false, fileIdentity) }
      nextFileCheck = now + fileCheckInterval
      return (true, fileIdentity)
    }
    var current = seen
    if due {
      let found = FileStamp(settings.path).identity
      current = found
      lock.withLock {
        if found != fileIdentity {
          fileIdentity = found
          idle.removeAll()
        }
      }
    }
    guard current != nil else {
      throw .cannotOpen(path: settings.path, message: "no such file (it was removed)")
    }
  }

  /// One read-only connection with every query prepared on it.
  final class Connection {
    /// Pages are read through a memory map of up to this size rather than copied by `read`.
    static let mappedBytes = 1 << 30
    let database: SQLiteDatabase
    /// The file it opened, as `FileStamp` identifies it.
    let fileIdentity: UInt64?
    let queries: [SQLiteFactQuery]
    let columnCount: Int
    private let begin: SQLiteStatement
    private let end: SQLiteStatement
    private let busyTimeoutMs: Int32
    private let lookupTimeoutMs: Int32?
    private let watch = QueryWatch()

    init(settings: Settings, schema: FactSchema) throws(SQLiteFactSourceError) {
      do {
        database = try SQLiteDatabase(
          path: settings.path, options: [.readOnly, .noMutex], busyTimeoutMs: settings.busyTimeoutMs
        )
        try database.execute("PRAGMA mmap_size = \(Connection.mappedBytes)")
      } catch {
        throw .cannotOpen(path: settings.path, message: error.message)
      }
      // Read once opened: a file moved in meanwhile makes this one's stale, closed at check-in.
      fileIdentity = FileStamp(settings.path).identity
      var queries: [SQLiteFactQuery] = []
      for (name, sql) in settings.queries.sorted(by: { $0.key < $1.key }) {
        queries.append(try SQLiteFactQuery(name: name, sql: sql, on: database, schema: schema))
      }
      self.queries = queries
      columnCount = queries.reduce(0) { $0 + $1.columns.count }
      busyTimeoutMs = settings.busyTimeoutMs
      lookupTimeoutMs = settings.lookupTimeoutMs
      if settings.lookupTimeoutMs != nil {
        // Asked every thousand virtual-machine steps, on the thread running the statement.
        sqlite3_progress_handler(
          database.handle, 1_000,
          { context in
            guard let context else { return 0 }
            return Unmanaged<QueryWatch>.fromOpaque(context).takeUnretainedValue().isOverdue
              ? 1 : 0
          }, Unmanaged.passUnretained(watch).toOpaque())
      }
      do {
        begin = try database.prepare("BEGIN")
        end = try database.prepare("COMMIT")
      } catch {
        throw .cannotOpen(path: settings.path, message: error.message)
      }
    }

    /// Every query's facts for `keys`, in one read transaction; `lockedOut` says whether a
    /// failure was another connection's lock (read before the transaction's end clears it).
    func read(_ keys: RequestKeys, lockedOut: inout Bool) throws(SQLiteFactSourceError)
      -> [String: Value]
    {
      var facts: [String: Value] = [:]
      facts.reserveCapacity(columnCount)
      if let lookupTimeoutMs { watch.start(limitMs: lookupTimeoutMs) }
      do { try beginRead() } catch {
        watch.stop()
        throw error
      }
      // The watch stops before the transaction ends: the handler, still overdue, would
      // interrupt the COMMIT too and leave the connection inside its read transaction for good.
      defer { endRead() }
      defer { watch.stop() }
      var unread: [OtherStoresValue] = []
      do {
        for query in queries { try query.run(keys, into: &facts, unread: &unread) }
      } catch {
        lockedOut = isLockedOut
        if watch.isOverdue, let lookupTimeoutMs {
          throw .timedOut(query: error.query ?? "", limitMs: Int(lookupTimeoutMs))
        }
        throw error
      }
      guard unread.isEmpty else {
        throw .otherStoresValues(FactsInOtherStoresWords(facts: facts, values: unread))
      }
      return facts
    }

    /// Starts one read transaction for all of a request's queries: one snapshot, one lock.
    func beginRead() throws(SQLiteFactSourceError) {
      defer { begin.reset() }
      do { _ = try begin.step() } catch {
        throw .queryFailed(query: "BEGIN", message: error.message)
      }
    }

    /// Whether a query waits up to the busy timeout for another connection's lock, or fails at
    /// once.
    func waitsForLocks(_ waits: Bool) {
      sqlite3_busy_timeout(database.handle, waits ? busyTimeoutMs : 0)
    }

    /// Whether the last statement failed because another connection held a lock.
    var isLockedOut: Bool {
      let code = sqlite3_errcode(database.handle) & 0xff
      return code == SQLITE_BUSY || code == SQLITE_LOCKED
    }

    /// Ends the read transaction, releasing the lock; rolls it back if the COMMIT did not end
    /// it, so the connection never goes back to the pool inside a transaction.
    func endRead() {
      _ = try? end.step()
      end.reset()
      if sqlite3_get_autocommit(database.handle) == 0 { try? database.execute("ROLLBACK") }
    }
  }
}

/// The deadline of the lookup a connection is running, which SQLite's progress handler reads
/// on the same thread: a connection serves one lookup at a time, so it needs no lock.
final class QueryWatch {
  private var deadline: UInt64 = 0

  /// Starts timing a lookup allowed `limitMs` milliseconds.
  func start(limitMs: Int32) {
    deadline = DispatchTime.now().uptimeNanoseconds + UInt64(max(0, limitMs)) * 1_000_000
  }

  /// Ends the timing: nothing is overdue between lookups.
  func stop() { deadline = 0 }

  /// Whether the lookup has run past its limit.
  var isOverdue: Bool { deadline != 0 && DispatchTime.now().uptimeNanoseconds >= deadline }
}
