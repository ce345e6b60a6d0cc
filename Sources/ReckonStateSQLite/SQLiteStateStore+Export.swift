import Foundation
import ReckonSQLite
import ReckonState

extension SQLiteStateStore: StateExporter {
  /// At most `limit` rows of `table` after the row id `key`, in row id order, with the columns
  /// `StateTable` names: the outbox's context columns as one JSON object, `imported` as a
  /// boolean, texts kept as bytes where the other backends keep bytes.
  public func exportRows(_ table: StateTable, after key: Int64, limit: Int) throws(StateError)
    -> StateRowBatch
  {
    let columns = table.columns
    let selected =
      table == .outbox
      ? columns.flatMap { column in
        column.name == "context"
          ? ["product_type", "ownership_type", "advanced_commerce"] : [column.name]
      } : columns.map(\.name)
    let rows = try locked { () throws(StateError) in
      try connection.query(
        """
        SELECT rowid, \(selected.joined(separator: ", ")) FROM \(table.rawValue)
        WHERE rowid > ? ORDER BY rowid LIMIT ?
        """, [.integer(key), .integer(Int64(limit))])
    }
    var cells: [[StateCell]] = []
    cells.reserveCapacity(rows.count)
    for row in rows {
      var values = Array(row.values.dropFirst())
      if table == .outbox, let at = selected.firstIndex(of: "product_type") {
        let context = OutboxContextColumns(
          productType: row.text(at + 1), ownershipType: row.text(at + 2),
          isAdvancedCommerce: (row.int(at + 3) ?? 0) != 0
        ).context
        values.replaceSubrange(at..<(at + 3), with: [.text(Self.json(context))])
      }
      cells.append(zip(columns, values).map { Self.cell($1, as: $0.kind) })
    }
    return StateRowBatch(table: table, rows: cells, lastKey: rows.last?.int(0) ?? key)
  }

  /// How many rows `table` holds.
  public func rowCount(_ table: StateTable) throws(StateError) -> Int {
    try locked { () throws(StateError) in
      Int(try connection.query("SELECT COUNT(*) FROM \(table.rawValue)").first?.int(0) ?? 0)
    }
  }

  private static func cell(_ value: SQLiteValue, as kind: StateTable.Kind) -> StateCell {
    switch (value, kind) {
    case (.null, _): .null
    case (.integer(let number), .boolean): .boolean(number != 0)
    case (.integer(let number), .real): .real(Double(number))
    case (.integer(let number), _): .integer(number)
    case (.real(let number), .integer): .integer(Int64(number))
    case (.real(let number), _): .real(number)
    case (.text(let text), .bytes): .bytes(Data(text.utf8))
    case (.text(let text), _): .text(text)
    case (.blob(let data), .text), (.blob(let data), .json):
      .text(String(decoding: data, as: UTF8.self))
    case (.blob(let data), _): .bytes(data)
    }
  }

  private static func json(_ context: BodyContext) -> String {
    let data = try? JSONSerialization.data(withJSONObject: context.values, options: [.sortedKeys])
    return data.map { String(decoding: $0, as: UTF8.self) } ?? "{}"
  }
}
