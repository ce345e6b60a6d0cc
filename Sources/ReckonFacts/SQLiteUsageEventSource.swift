import Foundation
import ReckonPolicy
import ReckonSQLite
import ReckonSupport

/// Usage events from the app's SQLite database: one query whose rows are events, its columns
/// named after an event's parts and its named parameters the request's keys. Checked when the
/// source is created; run off the concurrency pool, as the fact queries are.
public final class SQLiteUsageEventSource: UsageEventSource, @unchecked Sendable {
  /// The columns a row may have, by name.
  public static let columns = [
    "consumptionTime", "ipAddress", "regionCode", "administrativeArea", "locality",
    "consumptionItemDescription", "obfuscatedAccountId", "obfuscatedProfileId",
  ]

  /// How the configuration names the query, in errors.
  static let query = "usageEventsQuery"

  /// The name events are attributed to.
  public let name: String
  private let path: String
  private let sql: String
  private let busyTimeoutMs: Int32
  private let lock = NSLock()
  private var idle: [(SQLiteDatabase, SQLiteStatement)] = []
  private let parameters: [(RequestKeys.Field, Int32)]
  private let columnNames: [String]
  private let queue = BlockingWorkQueue(label: "reckon.usage-events", width: 2)

  /// Opens the database read-only and prepares `sql`, refusing a column or parameter it does not
  /// know.
  public init(name: String, path: String, sql: String, busyTimeoutMs: Int32 = 1_000)
    throws(SQLiteFactSourceError)
  {
    self.name = name
    self.path = path
    self.sql = sql
    self.busyTimeoutMs = busyTimeoutMs
    let (database, statement) = try Self.open(path, sql, busyTimeoutMs)
    guard statement.isReadOnly else { throw .writesData(query: Self.query) }
    var parameters: [(RequestKeys.Field, Int32)] = []
    for (position, written) in statement.parameterNames.enumerated() {
      guard let written, let field = RequestKeys.Field(rawValue: String(written.dropFirst())),
        written.hasPrefix(":")
      else { throw .unknownParameter(query: Self.query, parameter: written ?? "?") }
      parameters.append((field, Int32(position + 1)))
    }
    let names = statement.columnNames
    if let unknown = names.first(where: { !Self.columns.contains($0) }) {
      throw .malformedQuery(
        query: Self.query,
        message:
          "column \"\(unknown)\" is not a part of a usage event; name columns "
          + Self.columns.joined(separator: ", "))
    }
    self.parameters = parameters
    self.columnNames = names
    idle = [(database, statement)]
  }

  private static func open(_ path: String, _ sql: String, _ busy: Int32)
    throws(SQLiteFactSourceError) -> (SQLiteDatabase, SQLiteStatement)
  {
    let database: SQLiteDatabase
    do throws(SQLiteError) { database = try SQLiteDatabase(path: path, busyTimeoutMs: busy) } catch
    {
      throw .cannotOpen(path: path, message: error.description)
    }
    do throws(SQLiteError) { return (database, try database.prepare(sql)) } catch {
      throw .malformedQuery(query: Self.query, message: error.description)
    }
  }

  /// The events the query finds for `keys`, off the concurrency pool.
  public func usageEvents(for keys: RequestKeys) async throws -> [UsageEvent] {
    try await queue.run { [self] in try read(keys) }
  }

  /// The events for `keys`, on the calling thread.
  public func read(_ keys: RequestKeys) throws(SQLiteFactSourceError) -> [UsageEvent] {
    let connection: (SQLiteDatabase, SQLiteStatement)
    if let taken = lock.withLock({ idle.popLast() }) {
      connection = taken
    } else {
      connection = try Self.open(path, sql, busyTimeoutMs)
    }
    let (database, statement) = connection
    defer {
      statement.reset()
      lock.withLock { idle.append((database, statement)) }
    }
    var rows: [SQLiteRow] = []
    do throws(SQLiteError) {
      for (field, index) in parameters { try statement.bind(keys[field], at: index) }
      while try statement.step() {
        rows.append(statement.row())
      }
    } catch {
      throw .queryFailed(query: Self.query, message: error.description)
    }
    return try rows.map(event)
  }

  /// One row as an event. A time that does not read fails the lookup, as a fact's value of the
  /// wrong type does: evidence goes to Google with the first answer or never, and an event
  /// without its time, or dated 1970, would go as it is.
  private func event(_ row: SQLiteRow) throws(SQLiteFactSourceError) -> UsageEvent {
    var event = UsageEvent()
    for (index, column) in columnNames.enumerated() {
      switch column {
      case "consumptionTime":
        event.time = try Self.time(row, index)
      case "ipAddress": event.ipAddress = row.text(index)
      case "regionCode": event.regionCode = row.text(index)
      case "administrativeArea": event.administrativeArea = row.text(index)
      case "locality": event.locality = row.text(index)
      case "consumptionItemDescription": event.description = row.text(index)
      case "obfuscatedAccountId": event.accountId = row.text(index)
      default: event.profileId = row.text(index)
      }
    }
    return event
  }

  /// A `consumptionTime`: UNIX milliseconds (whole or fractional, as a number or digits kept
  /// as text), or RFC 3339 text, which may have a fraction of a second; nil for NULL.
  private static func time(_ row: SQLiteRow, _ index: Int) throws(SQLiteFactSourceError) -> Date? {
    // Blank text is no time, as NULL is; digits may have spaces around them.
    let text = row.text(index).map(ValueParser.trimmedOfSpaces).flatMap { $0.isEmpty ? nil : $0 }
    if text == nil, row.text(index) != nil { return nil }
    let milliseconds = text.map { Double($0) } ?? row.double(index)
    if let milliseconds {
      switch MillisecondTimestamp.value(milliseconds) {
      case .success: return UnixMilliseconds.date(milliseconds)
      case .failure(let mistake):
        throw .wrongType(
          query: query, column: "consumptionTime", message: "consumptionTime \(mistake.description)"
        )
      }
    }
    guard let text else { return nil }
    guard text.contains("T"), let seconds = try? TimestampText.seconds(text) else {
      throw .wrongType(
        query: query, column: "consumptionTime",
        message:
          "consumptionTime '\(text)' is neither UNIX milliseconds nor an RFC 3339 time such as "
          + "2026-11-29T10:00:00Z")
    }
    return Date(timeIntervalSince1970: seconds)
  }
}
