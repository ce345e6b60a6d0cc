import Foundation
import Testing

@testable import ReckonStateSQLite

/// Every column that points at another table's row is indexed: SQLite looks the pointing rows
/// up when a row is deleted (`reckon prune`) and Reckon when a late verdict reopens repeats; an
/// unindexed one makes each look-up read its whole table.
@Suite struct ForeignKeyIndexTests {
  @Test func everyForeignKeyColumnLeadsAnIndex() throws {
    let store = try TestState.store()
    let tables = try store.connection.query(
      "SELECT name FROM sqlite_master WHERE type = 'table'"
    ).compactMap { $0.text(0) }
    var checked = 0
    for table in tables {
      for key in try store.connection.query("PRAGMA foreign_key_list(\(table))") {
        let column = try #require(key.text(3))
        let leading = try store.connection.query("PRAGMA index_list(\(table))").compactMap {
          index -> String? in
          guard let name = index.text(1) else { return nil }
          return try? store.connection.query("PRAGMA index_info(\(name))").first?.text(2)
        }
        #expect(leading.contains(column), "\(table).\(column) has no index")
        checked += 1
      }
    }
    #expect(checked == 6)
  }
}

/// The retry loop's search for undecided requests, every 30 s in `reckon serve`, reads only the
/// requests received within the longest reply window, by index, however long the file's history.
@Suite struct UndecidedSearchTests {
  @Test func theSearchIsBoundedByTheReplyWindowOnTheReceiptIndex() throws {
    let store = try TestState.store()
    let plan = try store.connection.query(
      "EXPLAIN QUERY PLAN " + store.undecidedQuery,
      [.real(0), .real(0), .integer(100), .real(0)]
    ).compactMap { $0.text(3) }
    #expect(
      plan.contains { $0.contains("requests_by_received (received_at>? AND received_at<?)") },
      "\(plan)")
  }

  @Test func aRequestStillOpenIsFoundAndOneReceivedBeforeTheWindowIsNot() throws {
    let store = try TestState.store()
    let now = TestState.start.addingTimeInterval(11 * 3_600)
    let open = try store.recordNotification(TestState.notification(transaction: "1"))
    _ = try store.recordNotification(
      TestState.notification(transaction: "2", at: TestState.start.addingTimeInterval(-3_600)))
    let found = try store.undecidedRequests(before: now, now: now)
    #expect(found.map(\.requestId) == [open.requestId])
  }
}
