import Foundation
import ReckonState

extension SQLiteStateStore {
  /// Copies every committed page from the write-ahead log into the database file and empties
  /// the log, so the file alone holds the whole database: a plain copy of it is then complete.
  /// Writers call it when they finish (`generate`, a stopping sender or server), since a connection still open at exit leaves everything since the last automatic
  /// checkpoint in the `-wal` file. Returns false when a reader in another process kept part of
  /// the log from being copied.
  ///
  /// Without `waitingForOthers`, it copies what it can at once and leaves the log as it is: a
  /// command that runs beside a service (`prune`, `import-history`) must not hold the write lock waiting for a
  /// reader in another process, as emptying the log does, while the service's writes time out.
  /// It then returns whether every page was copied.
  @discardableResult
  public func checkpoint(waitingForOthers: Bool = true) throws(StateError) -> Bool {
    try locked { () throws(StateError) in
      guard waitingForOthers else {
        // The log's frame count, then how many were copied: all when the two are equal.
        let row = try connection.query("PRAGMA wal_checkpoint(PASSIVE)").first
        return row?.int(1) == row?.int(2)
      }
      // The first column is 1 when the checkpoint could not finish.
      return try connection.query("PRAGMA wal_checkpoint(TRUNCATE)").first?.int(0) == 0
    }
  }
}

extension SQLiteStateStore {
  /// Throws when the folder a new state database would be made in does not exist, naming it:
  /// SQLite (and the sender lock beside the file) would only say "unable to open database file".
  public static func checkFolder(of path: String) throws(StateError) {
    let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
    var isFolder: ObjCBool = false
    guard FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder), isFolder.boolValue
    else { throw .cannotOpen(path: path, message: "its folder \(folder) does not exist") }
  }
}
