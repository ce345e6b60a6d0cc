import Foundation
import ReckonSQLite
import ReckonState

extension SQLiteStateStore: StateExporter {
  /// At most `limit` rows of `table` after the row id `key`, in row id order, with the columns
  /// `StateTable` names: the outbox's context columns as one JSON object, `imported` as a
  /// boolean, texts kept as bytes where the other backends keep bytes, and notifications and
  /// explanations as received and written (unpacked, inflated), whatever form they are kept in.
  public func exportRows(_ table: StateTable, after key: Int64, limit: Int) throws(StateError)
    -> StateRowBatch
  {
    let columns = table.columns
    let selected =
      table == .outbox
      ? columns.flatMap { column in
        column.name == "context"
          ? ["product_type", "ownership_type", "advanced_commerce"] : [column.name]
      } : columns.map { requestColumn($0.name, of: table) }
    let rows = try locked { () throws(StateError) in
      try connection.query(
        """
        SELECT rowid, \(selected.joined(separator: ", ")), \(storedFormat(table))
        FROM \(table.rawValue) WHERE rowid > ? ORDER BY rowid LIMIT ?
        """, [.integer(key), .integer(Int64(limit))])
    }
    var cells: [[StateCell]] = []
    cells.reserveCapacity(rows.count)
    for row in rows {
      var values = Array(row.values.dropFirst().dropLast())
      try unpack(&values, of: table, names: selected, format: row.int(row.values.count - 1) ?? 0)
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

  /// `name` as a file older than `StateSchema.requestSummaries` read as it is has it: a
  /// request's summary columns it lacks read as a request recorded without one.
  private func requestColumn(_ name: String, of table: StateTable) -> String {
    guard table == .requests, readVersion < StateSchema.requestSummaries else { return name }
    switch name {
    case "price", "currency", "reason", "product_type": return "NULL"
    case "summarized": return "0"
    default: return name
    }
  }

  /// How many rows `table` holds.
  public func rowCount(_ table: StateTable) throws(StateError) -> Int {
    try locked { () throws(StateError) in
      Int(try connection.query("SELECT COUNT(*) FROM \(table.rawValue)").first?.int(0) ?? 0)
    }
  }

  /// The column saying what form `table`'s packed column is kept in (0 for a table without one).
  private func storedFormat(_ table: StateTable) -> String {
    switch table {
    case .requests: rawFormat(table.rawValue)
    case .decisions: jsonFormat(table.rawValue)
    default: "0"
    }
  }

  /// Replaces a row's packed notification, or compressed facts and explanation, by what they
  /// stand for.
  private func unpack(
    _ values: inout [SQLiteValue], of table: StateTable, names: [String], format: Int64
  ) throws(StateError) {
    guard format != 0 else { return }
    var id: Int64 = 0
    if case .integer(let value)? = values.first { id = Int64(value) }
    switch table {
    case .requests:
      guard let at = names.firstIndex(of: "raw_notification"), case .blob(let raw) = values[at]
      else { return }
      values[at] = .blob(try receivedNotification(raw, format: format, requestId: id))
    case .decisions:
      guard let facts = names.firstIndex(of: "facts_json"), case .blob(let stored) = values[facts],
        let explanation = names.firstIndex(of: "explanation_json")
      else { return }
      var explained: Data?
      if case .blob(let data) = values[explanation] { explained = data }
      let json = try DecisionJSON(facts: stored, explanation: explained)
        .written(format: format, decisionId: id)
      values[facts] = .blob(json.facts)
      values[explanation] = json.explanation.map { .blob($0) } ?? .null
    default: return
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
