import Foundation
import ReckonSQLite
import ReckonState

extension SQLiteStateStore {
  /// Records in the file that its state was moved to the database `address` at `now`, so the
  /// commands that write to a state refuse it (`checkNotMoved`): its held and pending replies
  /// are the database's to send now. Moving it again records the latest move.
  public func markMoved(to address: String, at now: Date) throws(StateError) {
    try locked { () throws(StateError) in
      try connection.transaction { () throws(StateError) in
        try connection.execute(
          "CREATE TABLE IF NOT EXISTS state_moved (address TEXT NOT NULL, moved_at REAL NOT NULL)")
        try connection.query("DELETE FROM state_moved")
        try connection.query(
          "INSERT INTO state_moved (address, moved_at) VALUES (?, ?)",
          [.text(address), .date(now)])
      }
    }
  }

  /// Throws `.moved` when `reckon state migrate` moved the state at `path` to a database; a
  /// missing file, or one never moved, passes.
  public static func checkNotMoved(path: String) throws(StateError) {
    guard FileManager.default.fileExists(atPath: path) else { return }
    let connection = try SQLiteConnection(path: path, synchronous: "NORMAL", readOnly: true)
    guard
      try !connection.query(
        "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'state_moved'"
      ).isEmpty,
      let row = try connection.query("SELECT address, moved_at FROM state_moved").first,
      let address = row.text(0), let at = row.date(1)
    else { return }
    throw .moved(path: path, to: address, at: at)
  }
}
