import Foundation
import ReckonState

extension PostgresStateStore: StateImporter {
  /// Writes the batch's rows in one transaction with the ids they had, skipping any whose id or
  /// unique key (a notification's UUID, a decision's request) the database holds already.
  public func importRows(_ batch: StateRowBatch) throws(StateError) -> Int {
    guard !batch.rows.isEmpty else { return 0 }
    let columns = batch.table.columns
    let placeholders = columns.enumerated().map { index, column in
      column.kind == .json ? "$\(index + 1)::jsonb" : "$\(index + 1)"
    }
    let sql = """
      INSERT INTO \(batch.table.rawValue) (\(columns.map(\.name).joined(separator: ", ")))
      VALUES (\(placeholders.joined(separator: ", "))) ON CONFLICT DO NOTHING
      """
    return try locked { () throws(StateError) in
      try connection.transaction { () throws(StateError) in
        var written = 0
        for row in batch.rows {
          try connection.query(sql, zip(row, columns).map { Self.value($0, as: $1.kind) })
          written += connection.changes
        }
        return written
      }
    }
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
