import CSQLite
import Foundation
import ReckonPolicy
import ReckonSQLite

/// Every request's facts from one ordered query, read as a stream and merged with requests
/// sorted the same way: the bulk path of a dry-run.
///
/// The query returns a `transaction_id` column (text, ordered ascending by SQLite's binary
/// collation) and fact columns named like the per-request queries'. Each row is converted once,
/// when a request asks for its transaction; requests must ask in ascending order.
public final class SQLiteBulkFactScan {
  /// One converted fact: the schema slot and its value.
  public typealias Fact = (slot: Int, value: Value)

  /// The SQL the scan runs: the bulk query, narrowed to the columns read and the bounds given.
  public let query: String
  private let statement: SQLiteStatement
  private let keyColumn: Int32
  // Kept apart rather than as one array of tuples: a row reads the indexes and slots of every
  // column, and copying a descriptor (strings) per column per row cost more than SQLite's read.
  private let columnIndexes: [Int32]
  private let slots: [Int]
  private let descriptors: [FactDescriptor]
  private let schema: FactSchema
  private var rowKey: [UInt8] = []
  private var exhausted = false
  private var started = false
  private var convertedKey: [UInt8]? = nil
  private var converted: [Fact] = []
  /// The values of the row last asked for that are in another store's words, left out of its
  /// facts: a request that reads them waits, as `reckon serve` makes it.
  public private(set) var otherStoresValues: [OtherStoresValue] = []
  /// Per column, the last text converted and its value: text facts (statuses, currencies,
  /// overrides) repeat from row to row, and parsing them again costs more than comparing bytes.
  private var lastText: [[UInt8]]
  private var lastValue: [Value?]

  /// Opens `path` read-only and prepares `sql`, limited to transaction ids from `lower` through
  /// `upper` when given (for running several scans side by side), and to the columns of the
  /// facts in `reading` when given: SQLite then leaves out the joins and subqueries that only
  /// the other columns need.
  public init(
    path: String, sql: String, schema: FactSchema, reading: Set<String>? = nil,
    lower: String? = nil, upper: String? = nil
  ) throws(SQLiteFactSourceError) {
    let database: SQLiteDatabase
    do {
      database = try SQLiteDatabase(path: path, options: [.readOnly, .noMutex])
      try database.execute("PRAGMA mmap_size = \(SQLiteFactSource.Connection.mappedBytes)")
    } catch {
      throw .cannotOpen(path: path, message: error.message)
    }
    // The query as written is vetted whole, read columns or not, so a mistake in a column no
    // policy reads yet is still reported.
    let written: SQLiteStatement
    do { written = try database.prepare(sql) } catch {
      throw .malformedQuery(query: "bulkQuery", message: error.message)
    }
    guard written.isReadOnly else { throw .writesData(query: "bulkQuery") }
    let names = written.columnNames
    guard names.contains("transaction_id") else {
      throw .malformedQuery(query: "bulkQuery", message: "it must return a transaction_id column")
    }
    var passedOver: Set<String> = []
    for name in names where name != "transaction_id" {
      if try SQLiteFactQuery.fact(for: name, in: "bulkQuery", schema: schema) == nil {
        passedOver.insert(name)
      }
    }
    // Narrowing selects columns by name, so a repeated one would be dropped without a word.
    if let repeated = names.firstRepeated() {
      throw .duplicateFact(column: repeated, queries: ["bulkQuery", "bulkQuery"])
    }
    let kept = names.filter {
      $0 != "transaction_id" && !passedOver.contains($0) && reading?.contains($0) ?? true
    }
    let bounded = lower != nil || upper != nil
    if bounded || kept.count < names.count - 1 {
      let columns = (["transaction_id"] + kept).map(SQLiteBulkFactScan.quoted)
      let range = bounded ? " WHERE transaction_id >= :lower AND transaction_id <= :upper" : ""
      // The statement as SQLite read it (no text after it), without its semicolon, on lines of
      // its own so a trailing comment cannot swallow the closing parenthesis.
      var inner = Substring(sqlite3_sql(written.handle).map { String(cString: $0) } ?? sql)
      while let last = inner.last, last == ";" || last.isWhitespace { inner.removeLast() }
      let narrowed =
        "SELECT \(columns.joined(separator: ", ")) FROM (\n\(inner)\n)\(range) ORDER BY transaction_id"
      do { statement = try database.prepare(narrowed) } catch {
        throw .malformedQuery(query: "bulkQuery", message: error.message)
      }
      query = narrowed
    } else {
      statement = written
      query = sql
    }
    let used = statement.columnNames
    let key = used.firstIndex(of: "transaction_id")!
    keyColumn = Int32(key)
    let factColumns = used.indices.filter { $0 != key }
    columnIndexes = factColumns.map { Int32($0) }
    slots = factColumns.map { schema.policySchema.slot(ofFact: used[$0])! }
    descriptors = factColumns.map { schema.policySchema.fact(named: used[$0])! }
    self.schema = schema
    lastText = Array(repeating: [], count: factColumns.count)
    lastValue = Array(repeating: nil, count: factColumns.count)
    if bounded {
      do {
        try statement.bind(lower ?? "", at: 1)
        try statement.bind(upper ?? String(repeating: "\u{10FFFF}", count: 4), at: 2)
      } catch {
        throw .queryFailed(query: "bulkQuery", message: error.message)
      }
    }
  }

  /// `name` as an SQL identifier.
  private static func quoted(_ name: String) -> String {
    "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
  }

  /// The facts of `transactionId`'s row, or nil when the query has none; ids must not decrease.
  /// Values in another store's words are left out, and named in `otherStoresValues`.
  public func facts(for transactionId: String) throws(SQLiteFactSourceError) -> [Fact]? {
    var key = transactionId
    let found = key.withUTF8 { bytes -> Result<Bool, SQLiteFactSourceError> in
      if let convertedKey,
        convertedKey.withUnsafeBufferPointer({ BulkKeyOrder.compare($0, bytes) == 0 })
      {
        return .success(true)
      }
      do throws(SQLiteFactSourceError) {
        if !started {
          started = true
          try step()
        }
        while !exhausted, rowKey.withUnsafeBufferPointer({ BulkKeyOrder.compare($0, bytes) < 0 }) {
          try step()
        }
        guard !exhausted, rowKey.withUnsafeBufferPointer({ BulkKeyOrder.compare($0, bytes) == 0 })
        else {
          return .success(false)
        }
        try convertRow()
        convertedKey = rowKey
        return .success(true)
      } catch {
        return .failure(error)
      }
    }
    guard try found.get() else {
      otherStoresValues.removeAll()
      return nil
    }
    return converted
  }

  private func step() throws(SQLiteFactSourceError) {
    let more: Bool
    do { more = try statement.step() } catch {
      throw .queryFailed(query: "bulkQuery", message: error.message)
    }
    guard more else {
      exhausted = true
      return
    }
    guard sqlite3_column_type(statement.handle, keyColumn) == SQLITE_TEXT,
      let text = sqlite3_column_text(statement.handle, keyColumn)
    else {
      throw .wrongType(
        query: "bulkQuery", column: "transaction_id",
        message: "transaction_id must be text in every row")
    }
    let count = Int(sqlite3_column_bytes(statement.handle, keyColumn))
    let next = UnsafeBufferPointer(start: text, count: count)
    guard rowKey.isEmpty || rowKey.withUnsafeBufferPointer({ BulkKeyOrder.compare($0, next) <= 0 })
    else {
      throw .malformedQuery(
        query: "bulkQuery",
        message: "rows must be ordered by transaction_id (ORDER BY transaction_id)")
    }
    rowKey.removeAll(keepingCapacity: true)
    rowKey.append(contentsOf: next)
  }

  private func convertRow() throws(SQLiteFactSourceError) {
    // Keeps the buffer: the caller has let go of the previous row's facts by now.
    converted.removeAll(keepingCapacity: true)
    otherStoresValues.removeAll()
    let handle = statement.handle
    for position in columnIndexes.indices {
      let index = columnIndexes[position]
      let type = sqlite3_column_type(handle, index)
      if type == SQLITE_NULL { continue }
      if type == SQLITE_TEXT, let text = sqlite3_column_text(handle, index) {
        let bytes = UnsafeBufferPointer(
          start: text, count: Int(sqlite3_column_bytes(handle, index)))
        if let value = lastValue[position],
          lastText[position].withUnsafeBufferPointer({ BulkKeyOrder.compare($0, bytes) == 0 })
        {
          converted.append((slots[position], value))
          continue
        }
        // Converted as `SQLiteStatement.column` reads text, so the value is the same.
        let raw = SQLiteValue.text(String(cString: text))
        let value: Value
        do throws(SQLiteFactSourceError) { value = try convert(raw, descriptors[position]) } catch {
          guard
            let other = SQLiteFactQuery.otherStoresValue(
              raw, descriptors[position], query: "bulkQuery", schema: schema)
          else { throw error }
          otherStoresValues.append(other)
          continue
        }
        lastText[position].removeAll(keepingCapacity: true)
        lastText[position].append(contentsOf: bytes)
        lastValue[position] = value
        converted.append((slots[position], value))
        continue
      }
      converted.append(
        (slots[position], try convert(statement.column(index), descriptors[position])))
    }
  }

  private func convert(_ raw: SQLiteValue, _ fact: FactDescriptor) throws(SQLiteFactSourceError)
    -> Value
  {
    do { return try SQLiteFactQuery.value(raw, for: fact) } catch {
      throw .wrongType(query: "bulkQuery", column: fact.name, message: error.message)
    }
  }
}

/// SQLite's BINARY collation on UTF-8 bytes: memcmp, then the shorter first.
public enum BulkKeyOrder {
  /// Negative, zero or positive as `left` sorts before, with or after `right`.
  public static func compare(_ left: String, _ right: String) -> Int {
    // In place where the bytes are contiguous (native strings): `withUTF8` needs a copy of
    // each, which retained and released both for every request of a dry-run.
    let inPlace = left.utf8.withContiguousStorageIfAvailable { a in
      right.utf8.withContiguousStorageIfAvailable { b in compare(a, b) }
    }
    return inPlace.flatMap { $0 } ?? compare(left.utf8, right.utf8)
  }

  /// Negative, zero or positive as `left` sorts before, with or after `right`.
  public static func compare(
    _ left: UnsafeBufferPointer<UInt8>, _ right: UnsafeBufferPointer<UInt8>
  ) -> Int {
    let common = min(left.count, right.count)
    if common > 0 {
      let order = memcmp(left.baseAddress!, right.baseAddress!, common)
      if order != 0 { return order < 0 ? -1 : 1 }
    }
    return left.count == right.count ? 0 : left.count < right.count ? -1 : 1
  }

  /// Negative, zero or positive as `left` sorts before, with or after `right`.
  public static func compare<L: Collection<UInt8>, R: Collection<UInt8>>(_ left: L, _ right: R)
    -> Int
  {
    var leftIndex = left.startIndex
    var rightIndex = right.startIndex
    while leftIndex != left.endIndex, rightIndex != right.endIndex {
      let a = left[leftIndex]
      let b = right[rightIndex]
      if a != b { return a < b ? -1 : 1 }
      left.formIndex(after: &leftIndex)
      right.formIndex(after: &rightIndex)
    }
    if leftIndex == left.endIndex { return rightIndex == right.endIndex ? 0 : -1 }
    return 1
  }
}
