import Foundation
import ReckonState

extension PostgresStateStore: StateImporter {
  /// Writes the batch's rows in one transaction with the ids they had, skipping any whose id or
  /// unique key (a notification's UUID, a decision's request) the database holds already.
  /// Notifications are packed and decisions' JSON deflated as the service stores them.
  public func importRows(_ batch: StateRowBatch) throws(StateError) -> Int {
    guard !batch.rows.isEmpty else { return 0 }
    let columns = batch.table.columns
    let format = Self.formatColumn(batch.table)
    let names = columns.map(\.name) + (format.map { [$0] } ?? [])
    let placeholders = names.indices.map { index in
      index < columns.count && columns[index].kind == .json
        ? "$\(index + 1)::jsonb" : "$\(index + 1)"
    }
    let sql = """
      INSERT INTO \(batch.table.rawValue) (\(names.joined(separator: ", ")))
      VALUES (\(placeholders.joined(separator: ", "))) ON CONFLICT DO NOTHING
      """
    return try locked { () throws(StateError) in
      try connection.transaction { () throws(StateError) in
        var written = 0
        for row in batch.rows {
          var values = zip(row, columns).map { Self.value($0, as: $1.kind) }
          if format != nil { try pack(&values, of: batch.table, columns: columns) }
          try connection.query(sql, values)
          written += connection.changes
        }
        return written
      }
    }
  }

  /// The column that says what form `table`'s packed values are in, for the tables that have one.
  private static func formatColumn(_ table: StateTable) -> String? {
    switch table {
    case .requests: "raw_format"
    case .decisions: "json_format"
    default: nil
    }
  }

  /// Packs a request's notification, or deflates a decision's facts and explanation, in the
  /// row's values, and appends the format they are in. The certificates a notification refers
  /// to are added in the import's transaction, so a batch that fails leaves none behind.
  private func pack(
    _ values: inout [PostgresValue], of table: StateTable,
    columns: [(name: String, kind: StateTable.Kind)]
  ) throws(StateError) {
    func bytes(_ name: String) -> (Int, Data?)? {
      guard let at = columns.firstIndex(where: { $0.name == name }) else { return nil }
      if case .bytes(let data) = values[at] { return (at, data) }
      return (at, nil)
    }
    switch table {
    case .requests:
      guard let (at, raw) = bytes("raw_notification"), let raw else {
        values.append(.integer(0))
        return
      }
      let stored = try storedNotification(raw, packed: PackedNotification(raw))
      values[at] = .bytes(stored.bytes)
      values.append(.integer(stored.format))
    default:
      guard let (factsAt, facts) = bytes("facts_json"), let facts,
        let (explanationAt, explanation) = bytes("explanation_json")
      else {
        values.append(.integer(0))
        return
      }
      let stored = DecisionJSON(facts: facts, explanation: explanation).stored
      values[factsAt] = .bytes(stored.facts)
      values[explanationAt] = .optional(stored.explanation)
      values.append(.integer(DecisionJSON.format))
    }
  }

  /// The identity columns of the rows of `table` held with ids in `ids`, by id.
  public func heldIdentities(_ table: StateTable, ids: ClosedRange<Int64>) throws(StateError)
    -> [Int64: [StateCell]]
  {
    let identity = table.identityColumns
    guard table.hasId, !identity.isEmpty else { return [:] }
    let rows = try locked { () throws(StateError) in
      try connection.query(
        """
        SELECT id, \(identity.joined(separator: ", ")) FROM \(table.rawValue)
        WHERE id >= $1 AND id <= $2
        """, [.integer(ids.lowerBound), .integer(ids.upperBound)])
    }
    var held: [Int64: [StateCell]] = [:]
    for row in rows {
      guard let id = row.int(0) else { continue }
      held[id] = row.cells.dropFirst().map(StateCell.init)
    }
    return held
  }

  /// How many rows `table` holds.
  public func rowCount(_ table: StateTable) throws(StateError) -> Int {
    try count("SELECT COUNT(*) FROM \(table.rawValue)")
  }

  /// Moves each identity past the highest id imported, so the next row the service records
  /// does not collide with one.
  public func finishImport() throws(StateError) {
    try locked { () throws(StateError) in
      for table in StateTable.allCases where table.hasId {
        try connection.query(
          """
          SELECT setval(pg_get_serial_sequence('\(table.rawValue)', 'id'),
            GREATEST(COALESCE(MAX(id), 0), 1), MAX(id) IS NOT NULL) FROM \(table.rawValue)
          """)
      }
    }
  }

  private static func value(_ cell: StateCell, as kind: StateTable.Kind) -> PostgresValue {
    switch cell {
    case .null:
      switch kind {
      case .integer: .null(.int8)
      case .real: .null(.float8)
      case .text, .json: .null(.text)
      case .bytes: .null(.bytea)
      case .boolean: .null(.bool)
      }
    case .integer(let number): kind == .real ? .double(Double(number)) : .integer(number)
    case .real(let number): kind == .integer ? .integer(Int64(number)) : .double(number)
    case .text(let text): kind == .bytes ? .bytes(Data(text.utf8)) : .text(text)
    case .bytes(let data):
      kind == .bytes ? .bytes(data) : .text(String(decoding: data, as: UTF8.self))
    case .boolean(let flag): .boolean(flag)
    }
  }
}

extension StateCell {
  /// A cell as read back from the database; NULL is `null`.
  init(_ cell: PostgresRow.Cell?) {
    switch cell {
    case nil: self = .null
    case .integer(let number): self = .integer(number)
    case .double(let number): self = .real(number)
    case .text(let text): self = .text(text)
    case .bytes(let data): self = .bytes(data)
    case .boolean(let flag): self = .boolean(flag)
    }
  }
}
