import CSQLite
import ReckonPolicy
import ReckonSQLite

/// One configured query, prepared on one connection: which request keys bind to which
/// parameters, and which fact each result column gives. Checked once, run many times.
struct SQLiteFactQuery {
  let name: String
  let statement: SQLiteStatement
  let bindings: [(index: Int32, field: RequestKeys.Field)]
  let columns: [(index: Int32, fact: FactDescriptor)]
  /// The columns left unread, of facts only another store the source serves reads: still
  /// counted when a fact is given twice, as that store's reading counts them.
  let passedOver: [String]
  /// The schema the columns were checked by, to name another store's value it meets.
  private let schema: FactSchema

  /// Prepares `sql` and checks its parameters and columns against `schema`; a column of a
  /// fact only another store the source serves takes from it is left unread.
  init(name: String, sql: String, on database: SQLiteDatabase, schema: FactSchema)
    throws(SQLiteFactSourceError)
  {
    do { statement = try database.prepare(sql) } catch {
      // Preparing reads the schema: a database locked past the busy timeout, or one that cannot
      // be read now, is not the query's fault.
      if Self.cannotReadNow(error) {
        throw .cannotOpen(path: database.path, message: error.message)
      }
      throw .malformedQuery(query: name, message: error.message)
    }
    guard statement.isReadOnly else { throw .writesData(query: name) }
    self.name = name
    self.schema = schema
    var bindings: [(Int32, RequestKeys.Field)] = []
    for (position, parameter) in statement.parameterNames.enumerated() {
      let field = RequestKeys.Field.allCases.first { $0.parameter == parameter }
      guard let field else { throw .unknownParameter(query: name, parameter: parameter ?? "?") }
      bindings.append((Int32(position + 1), field))
    }
    self.bindings = bindings
    var columns: [(Int32, FactDescriptor)] = []
    var passedOver: [String] = []
    for (position, column) in statement.columnNames.enumerated() {
      guard let fact = try SQLiteFactQuery.fact(for: column, in: name, schema: schema) else {
        passedOver.append(column)
        continue
      }
      columns.append((Int32(position), fact))
    }
    if let repeated = (columns.map(\.1.name) + passedOver).firstRepeated() {
      throw .duplicateFact(column: repeated, queries: [name, name])
    }
    self.columns = columns
    self.passedOver = passedOver
  }

  /// Whether `error` says the file cannot be read now (locked, an I/O or open failure) rather
  /// than that the SQL or the database's contents are wrong.
  static func cannotReadNow(_ error: SQLiteError) -> Bool {
    error.isBusy || [SQLITE_CANTOPEN, SQLITE_IOERR].contains(error.code & 0xff)
  }

  /// The fact a column gives, or nil for one only another store the source serves reads.
  static func fact(for column: String, in query: String, schema: FactSchema)
    throws(SQLiteFactSourceError)
    -> FactDescriptor?
  {
    if schema.otherStores.passedOverFacts.contains(column) { return nil }
    guard let fact = schema.policySchema.fact(named: column) else {
      let candidates = schema.entries.filter { $0.origin != .notification }.map(\.descriptor.name)
      throw .unknownFact(
        query: query, column: column, suggestion: Suggestions.closest(to: column, among: candidates)
      )
    }
    guard schema.origin(of: column) != .notification else {
      throw .notificationFact(query: query, column: column)
    }
    return fact
  }

  /// Runs the query for `keys` and adds the first row's non-NULL columns to `facts`; a value in
  /// another store's words goes to `unread` instead.
  func run(
    _ keys: RequestKeys, into facts: inout [String: Value], unread: inout [OtherStoresValue]
  ) throws(SQLiteFactSourceError) {
    defer { statement.reset() }
    do {
      for binding in bindings { try statement.bind(keys[binding.field], at: binding.index) }
      guard try statement.step() else { return }
    } catch {
      throw .queryFailed(query: name, message: error.message)
    }
    for column in columns {
      let raw = statement.column(column.index)
      if raw == .null { continue }
      do {
        facts[column.fact.name] = try SQLiteFactQuery.value(raw, for: column.fact)
      } catch {
        if let other = Self.otherStoresValue(raw, column.fact, query: name, schema: schema) {
          unread.append(other)
          continue
        }
        var message = error.message
        if case .text(let text) = raw,
          let hint = schema.otherStoresHint(text, forFact: column.fact.name)
        {
          message += "; " + hint
        }
        throw .wrongType(query: name, column: column.fact.name, message: message)
      }
    }
  }

  /// A column's value that did not convert, as another store's word, if it is one.
  static func otherStoresValue(
    _ raw: SQLiteValue, _ fact: FactDescriptor, query: String, schema: FactSchema
  ) -> OtherStoresValue? {
    guard case .text(let text) = raw else { return nil }
    return schema.otherStoresValue(
      text, forFact: fact.name, at: "query '\(query)'")
  }

  /// Converts a column value to a fact's type: see docs/configuration.md for the table. A value
  /// no fact can hold (`1e999`, a time past year 9999) is refused as a wrong type is.
  static func value(_ raw: SQLiteValue, for fact: FactDescriptor) throws(ConversionError) -> Value {
    let value = try converted(raw, for: fact)
    if let problem = value.outOfBounds { throw ConversionError("\(fact.name): \(problem)") }
    return value
  }

  private static func converted(_ raw: SQLiteValue, for fact: FactDescriptor)
    throws(ConversionError) -> Value
  {
    switch (raw, fact.type) {
    case (.text(let text), _):
      if let plain = PlainValueReader.read(text, as: fact.type) { return plain }
      do { return try ValueParser.parse(text, as: fact.type) } catch {
        throw ConversionError(error.description)
      }
    case (.integer, .boolean), (.real, .boolean):
      guard raw.double == 0 || raw.double == 1 else {
        throw ConversionError("\(fact.name) is a boolean; expected 0 or 1, got \(raw.double)")
      }
      return .boolean(raw.double == 1)
    case (.integer, .number), (.real, .number): return .number(raw.double)
    case (.integer, .percent), (.real, .percent):
      guard (0...100).contains(raw.double) else {
        throw ConversionError("\(fact.name) must be from 0 to 100 (percent), got \(raw.double)")
      }
      return .percent(raw.double)
    case (.integer, .duration), (.real, .duration): return .duration(raw.double)
    case (.integer, .timestamp), (.real, .timestamp):
      switch MillisecondTimestamp.value(raw.double) {
      case .success(let time): return time
      case .failure(let mistake):
        throw ConversionError(
          "\(fact.name) \(mistake.description), as in unixepoch(...) * 1000")
      }
    default:
      throw ConversionError(
        "\(fact.name) is \(fact.type.withArticle) and cannot come from \(raw.storageClass); \(hint(fact.type))"
      )
    }
  }

  private static func hint(_ type: ValueType) -> String {
    switch type {
    case .money: "select text such as '4.99 USD'"
    case .enumeration(let enumType): "select text such as '\(enumType.cases.first ?? "")'"
    case .boolean: "select 0 or 1"
    default: "select text written as in the language"
    }
  }

  struct ConversionError: Error {
    let message: String
    init(_ message: String) { self.message = message }
  }
}

extension SQLiteValue {
  fileprivate var double: Double {
    switch self {
    case .integer(let number): Double(number)
    case .real(let number): number
    default: .nan
    }
  }
}

extension Sequence where Element: Hashable {
  /// The first element seen twice, if any.
  func firstRepeated() -> Element? {
    var seen: Set<Element> = []
    for element in self where !seen.insert(element).inserted { return element }
    return nil
  }
}
