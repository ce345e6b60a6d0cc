import Foundation
import ReckonState
import ReckonStateSQLite
import ReckonTestSupport
import ReckonTools
import Synchronization
import Testing

/// A row the target holds under the file's id is skipped only if it is the file's row: a target
/// holding another state's history is refused, not reported as holding every row.
struct StateMigrationIdentityTests {
  /// A target that keeps rows by table and id, each request's notification UUID once, as the
  /// PostgreSQL state's keys do.
  final class KeptRows: StateImporter {
    private let rows = Mutex<[StateTable: [Int64: [StateCell]]]>([:])

    func hold(_ table: StateTable, id: Int64, _ cells: [StateCell]) {
      rows.withLock { $0[table, default: [:]][id] = cells }
    }

    func importRows(_ batch: StateRowBatch) throws(StateError) -> Int {
      rows.withLock { rows in
        var written = 0
        for row in batch.rows {
          guard case .integer(let id) = row.first else { continue }
          let held = rows[batch.table, default: [:]]
          let uuidAt = batch.table.columns.firstIndex { $0.name == "notification_uuid" }
          let takenKey = uuidAt.map { at in held.values.contains { $0[at] == row[at] } } ?? false
          guard held[id] == nil, !takenKey else { continue }
          rows[batch.table, default: [:]][id] = row
          written += 1
        }
        return written
      }
    }

    func heldIdentities(_ table: StateTable, ids: ClosedRange<Int64>) throws(StateError)
      -> [Int64: [StateCell]]
    {
      let at = table.identityColumns.compactMap { name in
        table.columns.firstIndex { $0.name == name }
      }
      return rows.withLock { rows in
        (rows[table] ?? [:]).filter { ids.contains($0.key) }.mapValues { row in
          at.map { row[$0] }
        }
      }
    }

    func rowCount(_ table: StateTable) throws(StateError) -> Int {
      rows.withLock { $0[table]?.count ?? 0 }
    }

    func finishImport() throws(StateError) {}
  }

  /// A file of two requests, and its rows as exported.
  func file() throws -> (SQLiteStateStore, [[StateCell]]) {
    let store = try StateSamples.store()
    for transaction in ["1", "2"] {
      _ = try store.recordNotification(StateSamples.notification(transaction: transaction))
    }
    return (store, try store.exportRows(.requests, after: 0, limit: 10).rows)
  }

  @Test func aMoveIntoItsOwnPartlyMovedRowsFinishes() throws {
    let (store, rows) = try file()
    let target = KeptRows()
    target.hold(.requests, id: 1, rows[0])
    let counts = try StateMigration(from: store, to: target).run()
    #expect(counts.first { $0.table == .requests }?.written == 1)
    #expect(try target.rowCount(.requests) == 2)
  }

  @Test func anotherRowUnderTheFilesIdIsRefusedAndNothingOfItsBatchWritten() throws {
    let (store, rows) = try file()
    let target = KeptRows()
    var other = rows[0]
    other[1] = .text("99999999-0000-4000-8000-000000000000")
    target.hold(.requests, id: 1, other)
    #expect {
      try StateMigration(from: store, to: target).run()
    } throws: { error in
      guard case .otherHistory(.requests, 1, _, _)? = error as? StateMigration.Failure else {
        return false
      }
      return "\(error)".contains("notification_uuid '99999999-0000-4000-8000-000000000000'")
    }
    #expect(try target.rowCount(.requests) == 1)
  }

  @Test func theFilesNotificationHeldUnderAnotherIdIsRefused() throws {
    let (store, rows) = try file()
    let target = KeptRows()
    var moved = rows[1]
    moved[0] = .integer(40)
    target.hold(.requests, id: 40, moved)
    #expect {
      try StateMigration(from: store, to: target).run()
    } throws: { error in
      guard case .heldUnderOtherIds(.requests, 1)? = error as? StateMigration.Failure else {
        return false
      }
      return true
    }
  }
}
